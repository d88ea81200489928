import type { Writable } from "node:stream";
import type { Context } from "../commands/context";
import { jsonLogsWanted } from "../core/log-codes";
import { type IOStreams, processStreams } from "../io/iostreams";
import { jsonLogStream } from "./json-log";
import { embeddedSqliteAddon } from "./native-addon";

declare const ADREPORT_VERSION: string;

export function systemContext(): Context {
  const io = processStreams(process.env);
  return {
    io: jsonLogsWanted(process.argv.slice(2), process.env) ? jsonLogStreams(io) : io,
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

/** Standard error as JSON records: never a terminal to draw on (no spinner, no colour). */
function jsonLogStreams(io: IOStreams): IOStreams {
  let err: Writable | undefined;
  // Getters, as processStreams' own: a stream is made when first touched.
  return {
    get in() {
      return io.in;
    },
    get out() {
      return io.out;
    },
    get err() {
      err ??= jsonLogStream(io.err);
      return err;
    },
    inIsTTY: io.inIsTTY,
    outIsTTY: io.outIsTTY,
    errIsTTY: false,
    color: false,
    outColor: io.outColor,
    get columns() {
      return io.columns;
    },
    errColumns: 0,
  };
}
