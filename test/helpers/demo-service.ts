/**
 * A serve with the demo data and a key, and the CLI run against it in this process: where most command
 * tests start. `env` points a run at the service (its key, its URL, a config folder of its own); `run` and
 * `start` run a command there with a fixed clock, in a temporary working folder. The data can be restated
 * between runs: `load` adds replacement lines and restarts the server on its port (its caches empty).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type DemoOptions, loadNdjsonFile, openForWriting, type RunningServer } from "../../src/server";
import type { RefLine } from "./reference";
import { type InProcessRun, runInProcess, startInProcess } from "./run-cli-in-process";
import { type KeySpec, type ListenOptions, serveDatabase, startTestService, type TestService } from "./serve";
import type { CliResult } from "./spawn-cli";
import { tempDir } from "./temp";

/** The key most tests use: Acme Outdoor's, from 127.0.0.1. */
export const ACME_KEY: KeySpec = { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] };

export interface DemoService {
  service: TestService;
  /** The first key issued (Acme Outdoor's unless `keys` said otherwise). */
  key: string;
  /** The working folder of every run; the config folder is `dir/config`. */
  dir: string;
  /** ADREPORT_CONFIG_DIR, ADREPORT_API_KEY and ADREPORT_BASE_URL for a run against the service. */
  env: Record<string, string>;
  /** Runs a command in this process at `now` (the service's default clock unless given), `extra` added to env. */
  run(args: string[], now?: Date, extra?: Record<string, string | undefined>): Promise<CliResult>;
  /** Starts a command in this process, to signal it or watch its output while it runs. */
  start(args: string[], now?: Date, extra?: Record<string, string | undefined>): InProcessRun;
  /** The server now answering (a new one after `reopen` or `load`). */
  server(): RunningServer;
  /** The service again on the same port (its caches empty), with `faults` (a `serve --faults` spec) if given. */
  reopen(faults?: string): Promise<void>;
  /** Loads replacement lines into the database, then reopens the service. */
  load(lines: RefLine[]): Promise<void>;
}

export async function startDemoService(
  options: { keys?: KeySpec[]; demo?: DemoOptions; now?: Date } & ListenOptions = {},
): Promise<DemoService> {
  const { keys = [ACME_KEY], now: defaultNow, ...rest } = options;
  const service = await startTestService({ ...rest, keys });
  const dir = tempDir();
  const env = {
    ADREPORT_CONFIG_DIR: join(dir, "config"),
    ADREPORT_API_KEY: service.keys[0] as string,
    ADREPORT_BASE_URL: service.url,
  };
  const inProcess = (now: Date | undefined, extra: Record<string, string | undefined>) => ({
    env: { ...env, ...extra },
    now: now ?? defaultNow,
    cwd: dir,
  });
  const port = Number(new URL(service.url).port);
  let server = service.server;
  let loads = 0;
  const reopen = async (faults?: string) => {
    await server.close();
    server = (await serveDatabase(service.dbPath, { ...(faults ? { faults } : {}), serve: { port } })).server;
  };
  return {
    service,
    key: env.ADREPORT_API_KEY,
    dir,
    env,
    run: (args, now, extra = {}) => runInProcess(args, inProcess(now, extra)),
    start: (args, now, extra = {}) => startInProcess(args, inProcess(now, extra)),
    server: () => server,
    reopen,
    load: async (lines) => {
      loads += 1;
      const file = join(dir, `restate-${loads}.ndjson`);
      writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
      const db = openForWriting(service.dbPath, { create: false });
      try {
        await loadNdjsonFile(db, file);
      } finally {
        db.close();
      }
      await reopen();
    },
  };
}
