/**
 * `npm run bench -- guard` (issue 23): every headline figure of the project, each a ratio (or a size against
 * an absolute goal) measured within the run, one line each with its goal and ok/short, in a few minutes on a
 * 2-core machine. A reduced but representative version of each benchmark; exit 1 when a figure is short
 * by more than its noise margin (bench/README.md). A benchmark, not a test: never part of `npm test`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { PostgresCluster } from "../test/helpers/postgres-cluster";
import { measureAccounts } from "./accounts";
import { measureColumnarExports, measureColumnarWriters } from "./columnar";
import { BIG_DB, ensureBigDb, HOURLY_EXPORT, issueBenchKey, WORK } from "./data";
import { duckdbAloneRss, measureDuckdbExport } from "./duckdb";
import {
  CHECKS,
  check,
  ensureGuardPgDatabase,
  ensureGuardPgDb,
  failed,
  GUARD_PG_DATABASE,
  GUARD_PG_DB,
} from "./guard-checks";
import { type Check, lineOf, verdictOf } from "./guard-verdict";
import { median, ROOT } from "./lib";
import { PG_OWN_TIME_SETTINGS, pgOwnTime } from "./pg-own-time";
import { startBenchCluster } from "./postgres-cluster";
import { measureCsvPeak, measureExportFloor, measureOneReport } from "./report";
import { measureTopRss } from "./report-top";
import { measureOnePage, measurePaging, type Paging } from "./serve";
import { MARGIN_MB, measureServeAbuse, VARIED_SECONDS } from "./serve-abuse";
import { measureFirstPages, measureThroughput, startSides } from "./serve-postgres";
import { quietServers, startServe } from "./serve-process";
import { measureStartup } from "./startup";
import { measureTargets } from "./targets";

const METRICS = "views,spending,clicks,conversions";
/** The ad,date hourly report from `from` to 2026-10-31, ending k hours early so each is computed afresh. */
const hourlyAds = (from: string) => (k: number) => ({
  from,
  to: `2026-10-31T${String(23 - k).padStart(2, "0")}:59:59Z`,
  metrics: METRICS,
  dimensions: "ad,date",
  granularity: "hour",
});
/** 17 days of the 5,000-ad set: about 510k rows. */
const hourly17 = hourlyAds("2026-10-15");
/** The 90 days of the PostgreSQL figures' 1,000-ad set: about 540k rows of one advertiser. */
const hourly90 = hourlyAds("2026-08-03");
/** How long the paging figure reads pages after the first before it extrapolates from those read. */
const PAGING_BUDGET_MS = 15_000;
const PG_PAGING_BUDGET_MS = 10_000;
/** The varied flood at the smallest `--cache-mb` one would give and at the default. */
const ABUSE_CACHE_MBS = [8, 64] as const;

/** `adreport --version` -> startup.version, `adreport report --from garbage` -> startup.report_from_garbage. */
function startupName(command: string): string {
  return `startup.${command
    .replace(/^adreport /, "")
    .replace(/[^a-z0-9]+/gi, "_")
    .replace(/^_+|_+$/g, "")}`;
}

async function startup(): Promise<Check[]> {
  const [node, ...commands] = measureStartup(10).filter((f) => !f.name.startsWith("single binary"));
  return commands.map((f) =>
    check(
      startupName(f.name),
      f.ratio,
      `${f.medianMs.toFixed(0)} vs node -e 0 ${node?.medianMs.toFixed(0)} ms, median of 10`,
    ),
  );
}

/**
 * The paging figures of a ~500k-row report on one backend: `serve.` or `pg.` first_page_500k and the rest.
 * A page's floor (issue 35) is the same page answered again from `serve`'s own cache, plus, on PostgreSQL,
 * PostgreSQL's own time for a page (`ownMs`, pg_stat_statements): what no change to `serve` can take away.
 * `page_vs_floor` compares the CPU time `serve` and the client spend on each (PostgreSQL's own time added to
 * both): what the wall times come to on a quiet machine, where on one shared with other work a page that is
 * computed waits for a core longer than one that is copied (3.6x to 8.8x by wall, 2.6x by CPU, at load 8-14).
 */
function pagingChecks(prefix: "serve" | "pg", report: string, paging: Paging, page400: number, ownMs = 0): Check[] {
  const sampled = paging.read < paging.pages ? `extrapolated from ${paging.read} of` : "all";
  const floorMs = paging.cachedMs + ownMs;
  const floorRatio = (paging.firstMs + floorMs * (paging.pages - 1)) / paging.firstMs;
  const own = prefix === "pg" ? ` + ${ownMs.toFixed(2)} ms PostgreSQL's own planning and execution a page` : "";
  const cpu = paging.pageCpuMs !== undefined && paging.cachedCpuMs !== undefined;
  const page = (cpu ? (paging.pageCpuMs as number) : paging.pageMs) + ownMs;
  const floorPage = (cpu ? (paging.cachedCpuMs as number) : paging.cachedMs) + ownMs;
  return [
    check(`${prefix}.first_page_500k`, paging.firstMs, `${report}, ${paging.pages} pages of 1,000`),
    check(
      `${prefix}.pages_vs_first`,
      paging.allMs / paging.firstMs,
      `${sampled} ${paging.pages} pages, ${paging.pageMs.toFixed(2)} ms a page; floor ${floorRatio.toFixed(1)}x: every page at its floor (${floorMs.toFixed(2)} ms)`,
      undefined,
      floorRatio,
    ),
    check(
      `${prefix}.page_vs_floor`,
      page / floorPage,
      `${cpu ? "CPU of serve and client" : "wall"} ${page.toFixed(2)} vs ${floorPage.toFixed(2)} ms a page: a later page against the same page again from serve's cache${own}; wall ${paging.pageMs.toFixed(2)} vs ${floorMs.toFixed(2)} ms`,
    ),
    check(`${prefix}.page400_first`, page400 / paging.firstMs, `${page400.toFixed(0)} ms vs first page`),
  ];
}

/** `serve` at default settings: paging a 500k-row report, page 400 first, the NDJSON floor, --top. */
async function serveDefault(): Promise<Check[]> {
  const key = issueBenchKey();
  const server = await startServe(BIG_DB);
  try {
    const paging = await measurePaging(server.url, key, hourly17(0), PAGING_BUDGET_MS, { serverPid: server.child.pid });
    const page400 = await measureOnePage(server.url, key, hourly17(1), 400);
    const forBench = {
      url: server.url,
      key,
      env: { ADREPORT_API_KEY: key, ADREPORT_BASE_URL: server.url, ADREPORT_CONFIG_DIR: "/nonexistent-adreport-bench" },
      stop: () => server.stop(),
    };
    const one = await measureOneReport(forBench, 7);
    const floor = await measureExportFloor(forBench, 3);
    const top = await measureTopRss(server.url, key, 2, "2026-10-28T14:00:00Z");
    return [
      ...pagingChecks("serve", "ad,date hourly, 17 days", paging, page400),
      check(
        "report.one_page_vs_fetch",
        one.reportMs / one.fetchMs,
        `${one.reportMs.toFixed(0)} vs ${one.fetchMs.toFixed(0)} ms (CPU ${one.reportCpuMs.toFixed(0)} vs ${one.fetchCpuMs.toFixed(0)}), median of 7 interleaved: adreport report of one page (campaign totals) as CSV, start to exit, against a Node process fetching and parsing the same page`,
      ),
      check(
        "export.ndjson_vs_raw",
        floor.ratio,
        `${floor.rows} rows, ${floor.exportMs.toFixed(0)} vs ${floor.loopMs.toFixed(0)} ms (CPU ${floor.cpuRatio.toFixed(2)}x), replayed pages, median of 3; floor ${(floor.parsingMs / floor.loopMs).toFixed(2)}x: the loop parsing each page`,
        undefined,
        floor.parsingMs / floor.loopMs,
      ),
      check(
        "export.ndjson_vs_plain_export",
        floor.exportMs / floor.plainExportMs,
        `${floor.exportMs.toFixed(0)} vs ${floor.plainExportMs.toFixed(0)} ms: the export against the loop parsing each page and writing its rows with JSON.stringify (parsing alone: ${floor.parsingMs.toFixed(0)} ms, ${(floor.exportMs / floor.parsingMs).toFixed(2)}x)`,
      ),
      check(
        "top.rss_vs_plain",
        top.topMb / top.plainMb,
        `${top.rows} rows, ${top.topMb.toFixed(0)} vs ${top.plainMb.toFixed(0)} MB`,
      ),
    ];
  } finally {
    await server.stop();
  }
}

/** The Parquet writer alone on 1M generated rows: rows a second of this process's CPU time (one core's worth). */
async function columnarWriter(): Promise<Check[]> {
  const { parquet, csv } = await measureColumnarWriters(1);
  return [
    check(
      "columnar.parquet_writer_cpu",
      1_000_000 / parquet.cpuMs,
      `${(parquet.cpuMs / 1000).toFixed(2)} s CPU, ${(parquet.wallMs / 1000).toFixed(2)} s wall; CSV's ${(csv.cpuMs / 1000).toFixed(2)} s CPU`,
    ),
  ];
}

/** `serve --cache-mb 1024` (a 1M-row report computed once): the client's RSS on 1M rows, the database targets. */
async function serveBig(postgresUrl: string | undefined): Promise<Check[]> {
  const key = issueBenchKey();
  const server = await startServe(BIG_DB, ["--cache-mb", "1024", "--header-timeout", "120"]);
  const out = join(WORK, "guard-targets");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  try {
    const env = { ADREPORT_API_KEY: key, ADREPORT_BASE_URL: server.url, ADREPORT_CONFIG_DIR: join(out, "config") };
    const hourly = { metrics: METRICS, dimensions: "ad,date", granularity: "hour" };
    const csv = await measureCsvPeak(server.url, key, { ...hourly, from: "2026-09-27", to: "2026-10-31" }, 1);
    const args = ["--dims", "ad,date", "--granularity", "hour", "--metrics", METRICS, "-q"];
    const targets = await measureTargets(
      env,
      out,
      [...args, "--from", "2026-10-28", "--to", "2026-10-31"],
      2,
      postgresUrl,
    );
    const columnar = measureColumnarExports(env, out, [...args, "--from", "2026-10-28", "--to", "2026-10-31"], 2);
    const parquet1m = measureColumnarExports(env, out, HOURLY_EXPORT, 1).parquet;
    const duckdb = measureDuckdbExport(env, out, [...args, "--from", "2026-10-28", "--to", "2026-10-31"], 2);
    const duckdbFloor = duckdbAloneRss(out, 120_000, 2);
    const seconds = (s: number | undefined) => `${(s ?? Number.NaN).toFixed(2)} s`;
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    return [
      check(
        "columnar.parquet_vs_csv",
        columnar.parquet.seconds / columnar.csv.seconds,
        `${seconds(columnar.parquet.seconds)} vs ${seconds(columnar.csv.seconds)}, 4 days hourly to a file, alternately`,
      ),
      check(
        "columnar.parquet_size_vs_csv",
        columnar.parquet.bytes / columnar.csv.bytes,
        `${mb(columnar.parquet.bytes)} vs ${mb(columnar.csv.bytes)}`,
      ),
      check(
        "columnar.parquet_1m_rss",
        parquet1m.peakMb,
        `1M rows in ${seconds(parquet1m.seconds)}, ${mb(parquet1m.bytes)}`,
      ),
      check("export.csv_1m_rss", csv.peakMb, `${csv.rows} rows in ${csv.seconds.toFixed(1)} s`),
      check(
        "targets.sqlite_vs_csv",
        targets.sqlite / targets.csv,
        `${seconds(targets.sqlite)} vs ${seconds(targets.csv)}, 4 days hourly`,
      ),
      postgresUrl === undefined
        ? failed("targets.postgres_vs_csv", "no PostgreSQL cluster")
        : check(
            "targets.postgres_vs_csv",
            (targets.postgres ?? Number.NaN) / targets.csv,
            `${seconds(targets.postgres)}, COPY`,
          ),
      check(
        "targets.duckdb_vs_csv",
        duckdb.duckdb / duckdb.csv,
        `${seconds(duckdb.duckdb)} vs ${seconds(duckdb.csv)}, 4 days hourly, alternately`,
      ),
      check(
        "targets.duckdb_rss",
        duckdb.duckdbPeakMb,
        `4 days hourly (CSV ${duckdb.csvPeakMb.toFixed(0)} MB); floor ${duckdbFloor.toFixed(0)} MB: DuckDB alone taking as many rows in a bare node`,
        undefined,
        duckdbFloor,
      ),
    ];
  } finally {
    await server.stop();
    rmSync(out, { recursive: true, force: true });
  }
}

async function servePostgres(cluster: PostgresCluster | string): Promise<Check[]> {
  if (typeof cluster === "string") throw new Error(cluster);
  const sides = await startSides(await ensureGuardPgDatabase(cluster), GUARD_PG_DB);
  try {
    const own = await pgOwnTime(cluster, GUARD_PG_DATABASE);
    const firstOwn: number[] = [];
    const [liteFirst, pgFirst] = (await measureFirstPages(sides, 5, { side: 1, time: own, ms: firstOwn }, 2)) as [
      number,
      number,
    ];
    const pgFirstOwn = median(firstOwn);
    const [liteRps, pgRps] = (await measureThroughput(sides, 3, 2)) as [number, number];
    const pg = sides[1];
    let pagingOwnMs = 0;
    const paging = await measurePaging(pg.server.url, pg.key, hourly90(0), PG_PAGING_BUDGET_MS, {
      serverPid: pg.server.child.pid,
      afterFirst: () => own.reset(),
      afterPaging: async () => {
        pagingOwnMs = await own.ms();
      },
    });
    const pageOwnMs = pagingOwnMs / Math.max(1, paging.read - 1);
    const page400 = await measureOnePage(pg.server.url, pg.key, hourly90(1), 400);
    return [
      ...pagingChecks("pg", "ad,date hourly, 90 days", paging, page400, pageOwnMs),
      check(
        "pg.first_page_vs_sqlite",
        pgFirst / liteFirst,
        `${pgFirst.toFixed(0)} vs ${liteFirst.toFixed(0)} ms, 90-day campaign,date, median of 5 after 2 of warm-up; floor ${((liteFirst + pgFirstOwn) / liteFirst).toFixed(2)}x: SQLite's page + PostgreSQL's own time`,
        undefined,
        (liteFirst + pgFirstOwn) / liteFirst,
      ),
      check(
        "pg.first_page_vs_floor",
        pgFirst / (liteFirst + pgFirstOwn),
        `${pgFirst.toFixed(0)} vs ${liteFirst.toFixed(0)} + ${pgFirstOwn.toFixed(1)} ms: serve's first page on PostgreSQL against SQLite's whole first page plus PostgreSQL's own planning and execution of its statements (pg_stat_statements)`,
      ),
      check(
        "pg.throughput_vs_sqlite",
        pgRps / liteRps,
        `${pgRps.toFixed(0)} vs ${liteRps.toFixed(0)} req/s, 32 connections, 2 x 3 s`,
      ),
    ];
  } finally {
    for (const side of sides) await side.server.stop();
  }
}

async function accounts(): Promise<Check[]> {
  const a = await measureAccounts(2, 2);
  return [
    check(
      "accounts.time_vs_loop",
      a.oursMs / a.loopMs,
      `${a.oursMs.toFixed(0)} vs ${a.loopMs.toFixed(0)} ms, 20 accounts`,
    ),
    check("accounts.rss_vs_one", a.manyMb / a.oneMb, `${a.manyMb.toFixed(0)} vs ${a.oneMb.toFixed(0)} MB`),
  ];
}

async function abuse(): Promise<Check[]> {
  const checks: Check[] = [];
  for (const cacheMb of ABUSE_CACHE_MBS) {
    const a = await measureServeAbuse(VARIED_SECONDS, cacheMb, "varied");
    checks.push(
      check(
        `abuse.varied_rss_${cacheMb}`,
        a.peak,
        `--cache-mb ${cacheMb} + ${MARGIN_MB} MB, ${a.requests} distinct-report requests in ${VARIED_SECONDS} s`,
        cacheMb + MARGIN_MB,
      ),
    );
  }
  return checks;
}

/** Runs a section; a section that fails marks each of its figures short, with the reason. */
async function section(names: readonly string[], work: () => Promise<Check[]>): Promise<void> {
  if (!names.some(chosen)) return;
  const started = performance.now();
  let checks: Check[];
  try {
    checks = await work();
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
    checks = names.map((name) => failed(name, reason.slice(0, 160)));
  }
  for (const c of checks) {
    results.push(c);
    console.log(lineOf(c));
  }
  console.error(`  (${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

const results: Check[] = [];

/**
 * `ADREPORT_GUARD_ONLY=serve.,report.` runs only the sections holding a figure whose name starts with one of
 * these (every figure of such a section is printed): a change is checked by its own lines without the
 * whole guard's minutes and load. Unset, every section runs.
 */
const ONLY = process.env.ADREPORT_GUARD_ONLY?.split(",")
  .map((prefix) => prefix.trim())
  .filter((prefix) => prefix !== "");

function chosen(name: string): boolean {
  return ONLY === undefined || ONLY.length === 0 || ONLY.some((prefix) => name.startsWith(prefix));
}

export async function benchGuard(): Promise<void> {
  const started = performance.now();
  quietServers();
  // The figures are about this tree's code, not a dist/ left from another.
  const built = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (built.status !== 0) throw new Error("build failed");
  if (!existsSync("/usr/bin/time") && process.getuid?.() === 0) {
    spawnSync("apt-get", ["install", "-y", "-q", "time"], { stdio: "ignore" });
  }
  ensureBigDb();
  const names = (prefix: string) => Object.keys(CHECKS).filter((name) => name.startsWith(prefix));
  await section(names("startup."), startup);
  await section(
    [
      ...names("serve."),
      "report.one_page_vs_fetch",
      "export.ndjson_vs_raw",
      "export.ndjson_vs_plain_export",
      "top.rss_vs_plain",
    ],
    serveDefault,
  );
  await section(["columnar.parquet_writer_cpu"], columnarWriter);
  const bigNames = [
    "export.csv_1m_rss",
    ...names("targets."),
    ...names("columnar.parquet_").filter((n) => !n.endsWith("_cpu")),
  ];
  if (bigNames.some(chosen) || names("pg.").some(chosen)) await clustered(bigNames, names("pg."));
  await section(names("accounts."), accounts);
  await section(names("abuse."), abuse);
  const ok = results.filter((c) => verdictOf(c) === "ok").length;
  const failing = results.filter((c) => verdictOf(c) === "short").length;
  console.log(
    `guard: ${ok} ok, ${results.length - ok} short (${failing} beyond noise) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  if (failing > 0) process.exitCode = 1;
}

/** The sections that need the PostgreSQL cluster: the 1M-row export with the targets, and serve on PostgreSQL. */
async function clustered(bigNames: readonly string[], pgNames: readonly string[]): Promise<void> {
  if (pgNames.some(chosen)) ensureGuardPgDb();
  // Kept in .bench/ across runs (fsync on, as the targets figure wants), with the data set of the pg. figures.
  const cluster = await startBenchCluster({
    durable: true,
    keepIn: join(WORK, "guard-pg"),
    settings: PG_OWN_TIME_SETTINGS,
  });
  try {
    let targetsUrl: string | undefined;
    if (typeof cluster !== "string") {
      await cluster.sql("DROP DATABASE IF EXISTS guard_targets");
      targetsUrl = await cluster.createDatabase("guard_targets");
    }
    await section(bigNames, () => serveBig(targetsUrl));
    await section(pgNames, () => servePostgres(cluster));
  } finally {
    if (typeof cluster !== "string") {
      await cluster.sql("DROP DATABASE IF EXISTS guard_targets").catch(() => undefined);
      cluster.stop();
    }
  }
}
