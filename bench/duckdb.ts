/**
 * Issue 37: the DuckDB target against the CSV export, in one run on this machine (shared: ratios only).
 * 1. The writers alone, in this process: 1M generated hourly ad rows (pages of 1,000) through the CSV
 *    formatter into an atomic file, and into a DuckDB table (the Appender, one transaction), alternately.
 * 2. The 1M-row `ad,date` hourly export from a warmed local `serve` (the 5,000-ad data set), into a CSV file
 *    and into `duckdb:PATH`, alternately, a fresh file each time: wall time and peak RSS, medians.
 * Goals: wall <= 1.15x the CSV export's, peak RSS <= 128 MB. The wall ratio's bound is the CSV export with
 * its writer's time swapped for DuckDB's writer's (part 1), as if writing never overlapped the fetching of
 * the next page (it does: the export often lands below it). The RSS floor is DuckDB alone taking the same
 * rows in a bare node (bench/duckdb-alone.mjs): loading the library is 80 MB of it.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { csvFormatter } from "../src/format/csv";
import { fileSink } from "../src/io/file-sink";
import { duckdbTable } from "../src/targets/duckdb/table";
import { openTableTarget } from "../src/targets/table/target";
import { BIG_DB, ensureBigDb, HOURLY_EXPORT, HOURLY_EXPORT_LABEL, issueBenchKey, SMALL_EXPORT, WORK } from "./data";
import { GENERATED_ROWS, generatedMeta, generatedPages, generatedRequest } from "./generated-rows";
import { BIN, ensureBuilt, figure, measureCommand, median, ROOT, timeAsync } from "./lib";
import { startServe } from "./serve-process";

export const DUCKDB_WALL_GOAL = 1.15;
export const DUCKDB_RSS_GOAL_MB = 128;

/** Milliseconds (medians of 3, alternately) of the CSV formatter and of the DuckDB table on 1M generated rows. */
export async function writersAlone(work: string): Promise<{ csv: number; duckdb: number }> {
  const csv: number[] = [];
  const duckdb: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    csv.push(
      await timeAsync(async () => {
        const sink = await fileSink(join(work, `writers-${i}.csv`), work);
        await csvFormatter.write({ meta: generatedMeta, totalKnown: true, pages: generatedPages() }, sink.stream, {
          delimiter: ",",
          bom: false,
          spreadsheet: false,
          color: false,
        });
        await sink.commit();
      }),
    );
    duckdb.push(
      await timeAsync(async () => {
        const target = await openTableTarget(duckdbTable({ path: join(work, `writers-${i}.duckdb`), table: "ads" }), {
          profile: "",
          request: generatedRequest,
          cwd: work,
          now: new Date(),
          sqliteAddon: undefined,
          runId: `bench-${i}`,
          job: "bench",
        });
        try {
          await target.stage(
            { meta: generatedMeta, totalKnown: true, pages: generatedPages() },
            { from: "2026-09-27", to: "2026-10-14", everyDay: [] },
          );
          await target.commit(new Set());
        } finally {
          await target.close();
        }
      }),
    );
  }
  return { csv: median(csv), duckdb: median(duckdb) };
}

export interface DuckdbFigures {
  csv: number;
  duckdb: number;
  csvPeakMb: number;
  duckdbPeakMb: number;
}

/**
 * The export `args` into a CSV file and into a DuckDB table, `runs` times each, alternately, after one
 * warm-up export that has the service compute the report: median seconds and peak RSS of each.
 */
export function measureDuckdbExport(
  env: Record<string, string>,
  out: string,
  args: readonly string[],
  runs: number,
): DuckdbFigures {
  const exportTo = (output: string, extra: string[] = []) =>
    measureCommand(process.execPath, [BIN, "report", ...args, "-o", output, ...extra], env);
  exportTo(join(out, "warm.csv"), ["--timeout", "5m"]);
  const csv: Array<{ seconds: number; peakMb: number }> = [];
  const duckdb: Array<{ seconds: number; peakMb: number }> = [];
  for (let i = 0; i < runs; i += 1) {
    // Alternately first: neither side always runs on a machine the other just warmed.
    const sides = [
      () => csv.push(exportTo(join(out, `run${i}.csv`))),
      () => duckdb.push(exportTo(`duckdb:${join(out, `run${i}.duckdb`)}`, ["--table", "ads_hourly"])),
    ];
    for (const side of i % 2 === 0 ? sides : sides.reverse()) side();
  }
  return {
    csv: median(csv.map((r) => r.seconds)),
    duckdb: median(duckdb.map((r) => r.seconds)),
    csvPeakMb: median(csv.map((r) => r.peakMb)),
    duckdbPeakMb: median(duckdb.map((r) => r.peakMb)),
  };
}

/** Peak RSS (MB, median of `runs`) of DuckDB alone taking `rows` generated rows in a bare node: the RSS floor. */
export function duckdbAloneRss(out: string, rows: number, runs: number): number {
  const file = join(out, "alone.duckdb");
  const peaks = Array.from(
    { length: runs },
    () => measureCommand(process.execPath, [join(ROOT, "bench", "duckdb-alone.mjs"), file, String(rows)]).peakMb,
  );
  rmSync(file, { force: true });
  return median(peaks);
}

export async function benchDuckdb(): Promise<void> {
  ensureBuilt();
  ensureBigDb();
  const key = issueBenchKey();
  const server = await startServe(BIG_DB, ["--header-timeout", "120", "--cache-mb", "1024"]);
  const out = join(WORK, "duckdb");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  try {
    const writers = await writersAlone(out);
    figure("1M generated rows: CSV formatter into a file (median of 3)", `${(writers.csv / 1000).toFixed(2)} s`);
    figure(
      "1M generated rows into a DuckDB table (Appender, median of 3)",
      `${(writers.duckdb / 1000).toFixed(2)} s  ${(writers.duckdb / writers.csv).toFixed(2)}x  ${Math.round(GENERATED_ROWS / (writers.duckdb / 1000))} rows/s`,
    );
    const env = { ADREPORT_API_KEY: key, ADREPORT_BASE_URL: server.url, ADREPORT_CONFIG_DIR: join(out, "config") };
    const runs = 3;
    const f = measureDuckdbExport(env, out, HOURLY_EXPORT, runs);
    const ratio = f.duckdb / f.csv;
    // The CSV export with its writer's time swapped for DuckDB's writer's (1M rows; scaled for the small set).
    const scale = SMALL_EXPORT ? 0.12 : 1;
    const floor = (f.csv + ((writers.duckdb - writers.csv) / 1000) * scale) / f.csv;
    figure(
      `${HOURLY_EXPORT_LABEL} export to a CSV file (median of ${runs})`,
      `${f.csv.toFixed(2)} s  ${f.csvPeakMb.toFixed(0)} MB`,
    );
    figure(
      `the same into duckdb:PATH (median of ${runs}, alternately)`,
      `${f.duckdb.toFixed(2)} s  ${ratio.toFixed(2)}x (writer-swapped bound ${floor.toFixed(2)}x)`,
      ratio <= DUCKDB_WALL_GOAL,
    );
    // The small set: as many rows as it exports (about 120k), so the floor is of the same rows.
    const alone = duckdbAloneRss(out, SMALL_EXPORT ? 120_000 : GENERATED_ROWS, 3);
    figure(
      "peak RSS of the duckdb:PATH export (median)",
      `${f.duckdbPeakMb.toFixed(0)} MB (CSV ${f.csvPeakMb.toFixed(0)} MB; floor ${alone.toFixed(0)} MB: DuckDB alone taking as many rows in a bare node)`,
      f.duckdbPeakMb <= DUCKDB_RSS_GOAL_MB,
    );
  } finally {
    await server.stop();
    rmSync(out, { recursive: true, force: true });
  }
}
