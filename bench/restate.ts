/**
 * The restatement model (issue 40): on a demo data set of 500 ads x 120 days (generated once into
 * .bench/), what seeding the model costs, what a daily move of its clock costs and rewrites, and that a
 * report costs the same with the model as without it: the first page of a 90-day `ad,date` report on a
 * `serve` of a copy with the model against one of a copy without, 11 fresh reports each, interleaved, median.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openOperatorStore, startServer } from "../src/server";
import { WORK } from "./data";
import { cli, ensureBuilt, figure, median, timeAsync } from "./lib";

const DB = join(WORK, "restate-500-ads-120-days.db");
const DATA = ["--advertisers", "2", "--campaigns", "25", "--ads", "10", "--keywords", "1", "--days", "120"];
const END = "2026-12-01";
const START = Date.UTC(2026, 8, 1) / 1000;
const DAY = 86_400;

function ensureData(): void {
  if (existsSync(DB)) {
    cli(["serve", "upgrade", "--db", DB]);
    return;
  }
  mkdirSync(WORK, { recursive: true });
  console.log("  (generating the data set once: about half a minute)");
  rmSync(`${DB}.tmp`, { force: true });
  cli(["serve", "demo", "--db", `${DB}.tmp`, ...DATA, "--end", END]);
  renameSync(`${DB}.tmp`, DB);
}

/** A fresh copy of the data set, with the journal files SQLite may have left beside it gone. */
function copy(name: string): string {
  const path = join(WORK, name);
  for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
  copyFileSync(DB, path);
  return path;
}

async function withStore<T>(db: string, work: (store: Awaited<ReturnType<typeof openOperatorStore>>) => Promise<T>) {
  const store = await openOperatorStore(db, { create: false });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

export async function benchRestate(): Promise<void> {
  ensureBuilt();
  ensureData();
  const plain = copy("restate-plain.db");
  const restated = copy("restate-model.db");
  const key = async (db: string) =>
    (await withStore(db, (s) => s.issueKey({ advertiser: "Acme Outdoor", ips: ["127.0.0.1"], now: START }))).key;
  const keys = [await key(plain), await key(restated)];

  const seedMs = await timeAsync(() =>
    withStore(restated, (s) => s.restate({ seed: 7, horizonDays: 30, clock: START, deletions: undefined })),
  );
  figure("seeding the model at a clock 90 days before the end", `${(seedMs / 1000).toFixed(2)} s`);

  const moves: number[] = [];
  const days: number[] = [];
  await withStore(restated, async (s) => {
    for (let i = 0; i < 60; i += 1) {
      let rewritten = 0;
      moves.push(await timeAsync(async () => (rewritten = (await s.moveClock({ by: DAY })).days)));
      days.push(rewritten);
    }
  });
  figure(
    "a daily move of the clock (60 moves, median)",
    `${median(moves).toFixed(0)} ms, ${median(days)} days rewritten (mean ${(days.reduce((a, b) => a + b, 0) / days.length).toFixed(1)}, max ${Math.max(...days)} of a 30-day horizon)`,
  );

  const servers = await Promise.all(
    [plain, restated].map((dbPath) =>
      startServer({ dbPath, host: "127.0.0.1", port: 0, trustProxy: [], cacheRows: 100_000 }),
    ),
  );
  try {
    const times: number[][] = [[], []];
    const ask = (side: number, to: string) =>
      fetch(
        `${(servers[side] as (typeof servers)[number]).url}/v1/report?from=2026-08-02&to=${to}&metrics=views,clicks,conversions,spending&dimensions=ad,date&limit=1000`,
        { headers: { authorization: `Bearer ${keys[side]}` } },
      );
    // A first report on each, untimed: the connection, the statements prepared, the pages read from disk.
    for (const side of [0, 1]) await (await ask(side, "2026-10-29T23:59:59Z")).arrayBuffer();
    // The clock is at 2026-10-31: the 90 days before it, ending k hours early, so no report is asked twice;
    // which side goes first alternates.
    for (let k = 0; k < 11; k += 1) {
      for (const side of k % 2 === 0 ? [0, 1] : [1, 0]) {
        const to = `2026-10-30T${String(23 - k).padStart(2, "0")}:59:59Z`;
        (times[side] as number[]).push(
          await timeAsync(async () => {
            const answer = await ask(side, to);
            if (answer.status !== 200) throw new Error(`${answer.status} ${await answer.text()}`);
            await answer.arrayBuffer();
          }),
        );
      }
    }
    const [without, withModel] = times.map(median) as [number, number];
    figure(
      "first page of a 90-day ad,date report, model / none",
      `${(withModel / without).toFixed(2)}x (${withModel.toFixed(0)} ms / ${without.toFixed(0)} ms)`,
      withModel / without <= 1.1,
    );
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}
