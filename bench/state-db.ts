/**
 * Issue 38: a job's state with its data. The same morning run of an incremental job into SQLite and into
 * PostgreSQL, from a host that kept its config folder and from a fresh container (an empty HOME, config
 * folder and temp folder; the key and URL from the environment), each into a database of its own that the
 * same first run filled. Figures: the requests of each (the container's must be +0) and the container's
 * wall time over the kept host's (median of 5, run alternately: it reads its state from the database
 * instead of a file, and writes it back there).
 */
import { mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { PostgresCluster } from "../test/helpers/postgres-cluster";
import { keptDatabase, WORK } from "./data";
import { BIN, cli, ensureBuilt, figure, measureCommand, median } from "./lib";
import { startBenchCluster } from "./postgres-cluster";
import { startServe } from "./serve-process";

const DB = join(WORK, "state-db-120-days.db");
const FOLDER = join(WORK, "state-db");
const RUNS = 5;

function dayText(daysSinceEpoch: number): string {
  return new Date(daysSinceEpoch * 86_400_000).toISOString().slice(0, 10);
}

export async function benchStateDb(): Promise<void> {
  ensureBuilt();
  const today = Math.floor(Date.now() / 86_400_000);
  if (!keptDatabase(DB)) {
    mkdirSync(WORK, { recursive: true });
    rmSync(`${DB}.tmp`, { force: true });
    const data = ["--advertisers", "1", "--campaigns", "20", "--ads", "10", "--keywords", "0", "--days", "122"];
    cli(["serve", "demo", "--db", `${DB}.tmp`, ...data, "--end", dayText(today + 1)]);
    renameSync(`${DB}.tmp`, DB);
  }
  rmSync(FOLDER, { recursive: true, force: true });
  mkdirSync(FOLDER, { recursive: true });
  const key = cli(["serve", "key", "issue", "--db", DB, "--advertiser", "Acme Outdoor", "--ip", "127.0.0.1"]).trim();
  const server = await startServe(DB);
  const cluster: PostgresCluster | string = await startBenchCluster();
  let homes = 0;
  /** A host: its own HOME, config folder and temp folder (a fresh one each call for a container). */
  const host = () => {
    homes += 1;
    const home = join(FOLDER, `home-${homes}`);
    mkdirSync(join(home, "tmp"), { recursive: true });
    return {
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      TMPDIR: join(home, "tmp"),
      ADREPORT_API_KEY: key,
      ADREPORT_BASE_URL: server.url,
    };
  };
  const job = ["report", "--dims", "ad,date", "--incremental", "--lookback", "3d", "-q"];
  const run = (env: Record<string, string>, output: string, extra: string[] = []) => {
    const summary = join(env.HOME as string, "summary.json");
    const { seconds } = measureCommand(
      process.execPath,
      [BIN, ...job, "-o", output, "--summary-file", summary, ...extra],
      env,
    );
    const requests = (JSON.parse(readFileSync(summary, "utf8")) as { requests: number }).requests;
    return { seconds, requests };
  };
  try {
    const targets: Array<[string, () => Promise<string>]> = [
      ["sqlite", async () => `sqlite:${join(FOLDER, `t${homes}.db`)}`],
    ];
    if (typeof cluster === "string") console.log(`  (PostgreSQL figures skipped: ${cluster})`);
    else targets.push(["postgres", () => cluster.createDatabase()]);
    for (const [name, newDatabase] of targets) {
      const kept = host();
      const keptDb = await newDatabase();
      const freshDb = await newDatabase();
      const start = ["--start", dayText(today - 120)];
      const first = run(kept, keptDb, start);
      run(host(), freshDb, start);
      figure(`${name}: first run, 120 days`, `${first.seconds.toFixed(2)} s, ${first.requests} requests`);
      const keptRuns: Array<{ seconds: number; requests: number }> = [];
      const freshRuns: Array<{ seconds: number; requests: number }> = [];
      for (let i = 0; i < RUNS; i += 1) {
        keptRuns.push(run(kept, keptDb));
        freshRuns.push(run(host(), freshDb));
      }
      const extra = Math.max(...freshRuns.map((r) => r.requests)) - Math.min(...keptRuns.map((r) => r.requests));
      figure(
        `${name}: next run, requests: kept files / fresh container`,
        `${median(keptRuns.map((r) => r.requests))} / ${median(freshRuns.map((r) => r.requests))} (+${extra})`,
        extra === 0,
      );
      const ratio = median(freshRuns.map((r) => r.seconds)) / median(keptRuns.map((r) => r.seconds));
      figure(
        `${name}: next run, wall: fresh container / kept files (median of ${RUNS})`,
        `${median(freshRuns.map((r) => r.seconds)).toFixed(2)} s / ${median(keptRuns.map((r) => r.seconds)).toFixed(2)} s  ${ratio.toFixed(2)}x`,
      );
    }
  } finally {
    if (typeof cluster !== "string") cluster.stop();
    await server.stop();
  }
}
