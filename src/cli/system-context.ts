import type { Context } from "../commands/context";
import { processStreams } from "../io/iostreams";
import { embeddedSqliteAddon } from "./native-addon";

declare const ADREPORT_VERSION: string;

export function systemContext(): Context {
  return {
    io: processStreams(process.env),
    env: process.env,
    cwd: process.cwd(),
    version: typeof ADREPORT_VERSION === "string" ? ADREPORT_VERSION : "0.0.0-dev",
    now: () => new Date(),
    user: process.getuid && process.getgid ? { uid: process.getuid(), gid: process.getgid() } : undefined,
    sqliteAddon: () => embeddedSqliteAddon(process),
    onSignal(handler) {
      process.on("SIGINT", handler);
      process.on("SIGTERM", handler);
      return () => {
        process.off("SIGINT", handler);
        process.off("SIGTERM", handler);
      };
    },
  };
}
