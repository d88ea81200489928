/**
 * Issue 37: Parquet beside CSV, in one run, on this machine.
 * 1. The writers alone, in this process: 1M generated hourly ad rows (a page of 1,000 at a time) through the
 *    CSV and the Parquet formatter into a stream that drops the bytes, interleaved, median of 3; the floor
 *    is generating the rows alone. Rows/s of wall time and of this process's CPU time (one core's worth).
 * 2. A 1M-row `ad,date` hourly export from a warmed local `serve` (the 5,000-ad set, --cache-mb 1024, as
 *    targets.ts), CSV and Parquet files alternately, median of 3: wall time, peak RSS (GNU time), size.
 * A figure past its goal is printed beside the floor it cannot beat in the same run.
 */
import { mkdirSync, rmSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { csvFormatter } from "../src/format/csv";
import type { Formatter } from "../src/format/formatter";
import { BIG_DB, ensureBigDb, HOURLY_EXPORT, HOURLY_EXPORT_LABEL, issueBenchKey, WORK } from "./data";
import { GENERATED_ROWS, generatedMeta, generatedPages } from "./generated-rows";
import { BIN, ensureBuilt, figure, measureCommand, median } from "./lib";
import { startServe } from "./serve-process";

interface Took {
  wallMs: number;
  cpuMs: number;
  bytes: number;
}

async function timed(write: ((sink: Writable) => Promise<void>) | undefined): Promise<Took> {
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done();
    },
  });
  const cpu = process.cpuUsage();
  const start = performance.now();
  if (write === undefined) for await (const _page of generatedPages());
  else await write(sink);
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, bytes };
}

const through = (formatter: Formatter) => (sink: Writable) =>
  formatter.write({ meta: generatedMeta, totalKnown: true, pages: generatedPages() }, sink, {
    delimiter: ",",
    bom: false,
    spreadsheet: false,
    color: false,
  });

export interface WriterFigures {
  floor: Took;
  csv: Took;
  parquet: Took;
}

/** The writers alone: medians of `runs` interleaved runs (generation, CSV, Parquet). */
export async function measureColumnarWriters(runs = 3): Promise<WriterFigures> {
  const { parquetFormatter } = await import("../src/format/parquet");
  const sides = { floor: [] as Took[], csv: [] as Took[], parquet: [] as Took[] };
  for (let i = 0; i < runs; i += 1) {
    sides.floor.push(await timed(undefined));
    sides.csv.push(await timed(through(csvFormatter)));
    sides.parquet.push(await timed(through(parquetFormatter)));
  }
  const mid = (took: Took[]): Took => ({
    wallMs: median(took.map((t) => t.wallMs)),
    cpuMs: median(took.map((t) => t.cpuMs)),
    bytes: median(took.map((t) => t.bytes)),
  });
  return { floor: mid(sides.floor), csv: mid(sides.csv), parquet: mid(sides.parquet) };
}

export interface ExportSide {
  seconds: number;
  peakMb: number;
  bytes: number;
}

/**
 * The export `args` into a CSV file and into a Parquet file (and, `withDuckdb`, a DuckDB table), alternately, `runs` times each after one warm-up
 * export that has the service compute the report; medians of wall time, peak RSS and size.
 */
export function measureColumnarExports(
  env: Record<string, string>,
  out: string,
  args: readonly string[],
  runs: number,
  withDuckdb = false,
): { csv: ExportSide; parquet: ExportSide; duckdb: ExportSide } {
  const exportTo = (file: string, extra: string[] = [], output = file): ExportSide => {
    const { seconds, peakMb } = measureCommand(process.execPath, [BIN, "report", ...args, "-o", output, ...extra], env);
    const bytes = statSync(file).size;
    rmSync(file);
    return { seconds, peakMb, bytes };
  };
  exportTo(join(out, "warm.csv"), ["--timeout", "5m"]);
  const csv: ExportSide[] = [];
  const parquet: ExportSide[] = [];
  const duckdb: ExportSide[] = [];
  for (let i = 0; i < runs; i += 1) {
    // Each side first in turn: neither always gets the cooler machine.
    if (i % 2 === 0) csv.push(exportTo(join(out, `run${i}.csv`)));
    parquet.push(exportTo(join(out, `run${i}.parquet`)));
    if (i % 2 === 1) csv.push(exportTo(join(out, `run${i}.csv`)));
    if (withDuckdb) {
      const file = join(out, `run${i}.duckdb`);
      duckdb.push(exportTo(file, ["--table", "ads_hourly"], `duckdb:${file}`));
    }
  }
  const mid = (sides: ExportSide[]): ExportSide => ({
    seconds: median(sides.map((s) => s.seconds)),
    peakMb: median(sides.map((s) => s.peakMb)),
    bytes: median(sides.map((s) => s.bytes)),
  });
  return { csv: mid(csv), parquet: mid(parquet), duckdb: withDuckdb ? mid(duckdb) : mid([]) };
}

const rate = (ms: number) => `${Math.round(GENERATED_ROWS / (ms / 1000) / 1000)}k rows/s`;

export async function benchColumnar(): Promise<void> {
  ensureBuilt();
  const writers = await measureColumnarWriters();
  figure("writers alone, 1M generated rows: generating them (floor)", `${(writers.floor.wallMs / 1000).toFixed(2)} s`);
  figure("CSV formatter (median of 3)", `${(writers.csv.wallMs / 1000).toFixed(2)} s  ${rate(writers.csv.wallMs)}`);
  // Wall time on a shared machine is the load's as much as the writer's: the goal is judged on CPU time (one
  // core's worth), and the wall line is shown beside CSV's in the same run.
  figure(
    "Parquet formatter (median of 3), wall",
    `${(writers.parquet.wallMs / 1000).toFixed(2)} s  ${rate(writers.parquet.wallMs)}  ${(writers.parquet.wallMs / writers.csv.wallMs).toFixed(2)}x CSV's (load ${loadavg()[0]?.toFixed(1)})`,
  );
  figure(
    "Parquet formatter, this process's CPU time (one core)",
    `${(writers.parquet.cpuMs / 1000).toFixed(2)} s  ${rate(writers.parquet.cpuMs)} (CSV ${rate(writers.csv.cpuMs)})`,
    GENERATED_ROWS / (writers.parquet.cpuMs / 1000) >= 200_000,
  );

  ensureBigDb();
  const key = issueBenchKey();
  const server = await startServe(BIG_DB, ["--header-timeout", "120", "--cache-mb", "1024"]);
  const out = join(WORK, "columnar");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  try {
    const env = { ADREPORT_API_KEY: key, ADREPORT_BASE_URL: server.url, ADREPORT_CONFIG_DIR: join(out, "config") };
    const { csv, parquet, duckdb } = measureColumnarExports(env, out, HOURLY_EXPORT, 3, true);
    const label = HOURLY_EXPORT_LABEL;
    figure(
      `${label} ad,date export to a CSV file (median of 3)`,
      `${csv.seconds.toFixed(2)} s, ${csv.peakMb.toFixed(0)} MB`,
    );
    const wall = parquet.seconds / csv.seconds;
    figure(
      "the same to a Parquet file, wall time",
      `${parquet.seconds.toFixed(2)} s  ${wall.toFixed(2)}x`,
      wall <= 1.15,
    );
    figure("the same to a Parquet file, peak RSS", `${parquet.peakMb.toFixed(0)} MB`, parquet.peakMb <= 128);
    const size = parquet.bytes / csv.bytes;
    figure(
      "Parquet size against the CSV's",
      `${(parquet.bytes / 1e6).toFixed(1)} MB vs ${(csv.bytes / 1e6).toFixed(1)} MB  ${size.toFixed(2)}x`,
      size <= 0.35,
    );
    const duckdbWall = duckdb.seconds / csv.seconds;
    figure(
      "the same into a DuckDB table (duckdb:PATH), wall time",
      `${duckdb.seconds.toFixed(2)} s  ${duckdbWall.toFixed(2)}x`,
      duckdbWall <= 1.15,
    );
    figure(
      "the same into a DuckDB table, peak RSS",
      `${duckdb.peakMb.toFixed(0)} MB (floor: npm run bench -- duckdb)`,
      duckdb.peakMb <= 128,
    );
  } finally {
    await server.stop();
    rmSync(out, { recursive: true, force: true });
  }
}
