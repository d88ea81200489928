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
import { BIG_DB, ensureBigDb, issueBenchKey, WORK } from "./data";
import { CHECKS, check, ensureGuardPgDatabase, ensureGuardPgDb, failed, GUARD_PG_DB } from "./guard-checks";
import { type Check, lineOf, verdictOf } from "./guard-verdict";
import { ROOT } from "./lib";
import { startBenchCluster } from "./postgres-cluster";
import { measureCsvPeak, measureExportFloor } from "./report";
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

/** All pages against the first were every later page as cheap as a bare route answering its bytes from memory. */
function floorRatio(paging: Paging): number {
  return (paging.firstMs + paging.floorMs * (paging.pages - 1)) / paging.firstMs;
}

/** The paging figures of a ~500k-row report on one backend: `serve.` or `pg.` first_page_500k and the rest. */
function pagingChecks(prefix: "serve" | "pg", report: string, paging: Paging, page400: number): Check[] {
  const sampled = paging.read < paging.pages ? `extrapolated from ${paging.read} of` : "all";
  return [
    check(`${prefix}.first_page_500k`, paging.firstMs, `${report}, ${paging.pages} pages of 1,000`),
    check(
      `${prefix}.pages_vs_first`,
      paging.allMs / paging.firstMs,
      `${sampled} ${paging.pages} pages, ${paging.pageMs.toFixed(2)} ms a page; floor ${floorRatio(paging).toFixed(1)}x: every page as cheap as a bare route's`,
      undefined,
      floorRatio(paging),
    ),
    check(
      `${prefix}.page_vs_bare_route`,
      paging.pageMs / paging.floorMs,
      `${paging.pageMs.toFixed(2)} vs ${paging.floorMs.toFixed(2)} ms a page: the same client and bytes from a bare fastify route answering from memory`,
    ),
    check(`${prefix}.page400_first`, page400 / paging.firstMs, `${page400.toFixed(0)} ms vs first page`),
  ];
}

/** `serve` at default settings: paging a 500k-row report, page 400 first, the NDJSON floor, --top. */
async function serveDefault(): Promise<Check[]> {
  const key = issueBenchKey();
  const server = await startServe(BIG_DB);
  try {
    const paging = await measurePaging(server.url, key, hourly17(0), PAGING_BUDGET_MS);
    const page400 = await measureOnePage(server.url, key, hourly17(1), 400);
    const floor = await measureExportFloor(
      {
        url: server.url,
        key,
        env: {
          ADREPORT_API_KEY: key,
          ADREPORT_BASE_URL: server.url,
          ADREPORT_CONFIG_DIR: "/nonexistent-adreport-bench",
        },
        stop: () => server.stop(),
      },
      3,
    );
    const top = await measureTopRss(server.url, key, 2, "2026-10-28T14:00:00Z");
    return [
      ...pagingChecks("serve", "ad,date hourly, 17 days", paging, page400),
      check(
        "export.ndjson_vs_raw",
        floor.ratio,
        `${floor.rows} rows, ${floor.exportMs.toFixed(0)} vs ${floor.loopMs.toFixed(0)} ms (CPU ${floor.cpuRatio.toFixed(2)}x), replayed pages, median of 3; floor ${(floor.parsingMs / floor.loopMs).toFixed(2)}x: the loop parsing each page`,
        undefined,
        floor.parsingMs / floor.loopMs,
      ),
      check(
        "export.ndjson_vs_parsing",
        floor.exportMs / floor.parsingMs,
        `${floor.exportMs.toFixed(0)} vs ${floor.parsingMs.toFixed(0)} ms: the export (pages checked, rows written) against the loop that only parses each page`,
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
    const seconds = (s: number | undefined) => `${(s ?? Number.NaN).toFixed(2)} s`;
    return [
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
    const [liteFirst, pgFirst] = (await measureFirstPages(sides, 5)) as [number, number];
    const [liteRps, pgRps] = (await measureThroughput(sides, 3, 2)) as [number, number];
    const pg = sides[1];
    const paging = await measurePaging(pg.server.url, pg.key, hourly90(0), PG_PAGING_BUDGET_MS);
    const page400 = await measureOnePage(pg.server.url, pg.key, hourly90(1), 400);
    return [
      ...pagingChecks("pg", "ad,date hourly, 90 days", paging, page400),
      check(
        "pg.first_page_vs_sqlite",
        pgFirst / liteFirst,
        `${pgFirst.toFixed(0)} vs ${liteFirst.toFixed(0)} ms, 90-day campaign,date, median of 5`,
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
  ensureGuardPgDb();
  const names = (prefix: string) => Object.keys(CHECKS).filter((name) => name.startsWith(prefix));
  await section(names("startup."), startup);
  await section(
    [...names("serve."), "export.ndjson_vs_raw", "export.ndjson_vs_parsing", "top.rss_vs_plain"],
    serveDefault,
  );
  // Kept in .bench/ across runs (fsync on, as the targets figure wants), with the data set of the pg. figures.
  const cluster = await startBenchCluster({ durable: true, keepIn: join(WORK, "guard-pg") });
  try {
    let targetsUrl: string | undefined;
    if (typeof cluster !== "string") {
      await cluster.sql("DROP DATABASE IF EXISTS guard_targets");
      targetsUrl = await cluster.createDatabase("guard_targets");
    }
    await section(["export.csv_1m_rss", ...names("targets.")], () => serveBig(targetsUrl));
    await section(names("pg."), () => servePostgres(cluster));
  } finally {
    if (typeof cluster !== "string") {
      await cluster.sql("DROP DATABASE IF EXISTS guard_targets").catch(() => undefined);
      cluster.stop();
    }
  }
  await section(names("accounts."), accounts);
  await section(names("abuse."), abuse);
  const ok = results.filter((c) => verdictOf(c) === "ok").length;
  const failing = results.filter((c) => verdictOf(c) === "short").length;
  console.log(
    `guard: ${ok} ok, ${results.length - ok} short (${failing} beyond noise) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  if (failing > 0) process.exitCode = 1;
}
