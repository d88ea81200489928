/**
 * Parquet day files written by the real formatter through dayFileTarget, read back by readDayFile (as
 * `verify` reads them): the same rows, sums (spending in micros) and digest as the record the export kept,
 * for any value the contract lets the service send; and every way a file can be no longer what was written
 * (cut short, a page or the footer overwritten, another program's Parquet, garbage) told by a reason,
 * never a throw. Also the writer alone: row groups, the same bytes twice, NULLs, a value it cannot hold.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import fc from "fast-check";
import { parquetMetadata } from "hyparquet";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import { describe, expect, it } from "vitest";
import type { ReportRow } from "../../../src/contract";
import { parquetFormatter, ROW_GROUP_ROWS } from "../../../src/format/parquet";
import { int64Column } from "../../../src/format/parquet-columns";
import type { DayFileWrite } from "../../../src/state/store";
import { METRICS, pathIn, readDayFile, rowsOf, secondOf, writeDays } from "../../helpers/day-files-written";
import { columnTypes, duckdb, parquetOf } from "../../helpers/parquet-read";
import { tempDir } from "../../helpers/temp";

const DAYS = ["2026-03-01", "2026-03-02", "2026-03-03"];
const PARQUET: DayFileWrite = { format: "parquet", delimiter: ",", bom: false, spreadsheet: false };
const TEMPLATE = "{date}.parquet";

async function written(
  rows: readonly ReportRow[],
  granularity = "daily",
  pageSize = 1000,
  tz?: string,
): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk));
  const meta = {
    granularity,
    dimensions: ["campaign", "date"],
    metrics: METRICS,
    total: rows.length,
    page: 1,
    limit: pageSize,
    has_more: false,
    ...(tz ? { tz } : {}),
  };
  async function* pages() {
    for (let at = 0; at < rows.length; at += pageSize) yield { rows: rows.slice(at, at + pageSize) };
  }
  await parquetFormatter.write({ meta, totalKnown: true, pages: pages() }, out, {
    delimiter: ",",
    bom: false,
    spreadsheet: false,
    color: false,
  });
  return Buffer.concat(chunks);
}

describe("parquet day files read back", () => {
  it("every day reads back as the export recorded it, a day without rows too", async () => {
    const dir = tempDir();
    const records = await writeDays(dir, TEMPLATE, PARQUET, DAYS, rowsOf(DAYS, 40));
    for (const [day, record] of records) {
      const path = pathIn(dir, TEMPLATE, day);
      expect(await readDayFile(path, PARQUET, METRICS)).toEqual({ ...record, bytes: statSync(path).size });
    }
    expect(records.get("2026-03-03")).toMatchObject({ rows: 0, sums: { views: 0, spending: 0 } });
  });

  it("a day of several row groups, larger than a read, reads back", async () => {
    const dir = tempDir();
    const days = ["2026-03-01", "2026-03-02"];
    const records = await writeDays(dir, TEMPLATE, PARQUET, days, rowsOf(days, 2 * ROW_GROUP_ROWS + 5), 1000);
    const path = pathIn(dir, TEMPLATE, "2026-03-01");
    expect(statSync(path).size).toBeGreaterThan(65_536);
    const buffer = readFileSync(path);
    const footer = parquetMetadata(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength));
    expect(footer.row_groups.map((group) => Number(group.num_rows))).toEqual([ROW_GROUP_ROWS, ROW_GROUP_ROWS, 5]);
    expect(await readDayFile(path, PARQUET, METRICS)).toEqual({ ...records.get("2026-03-01"), bytes: buffer.length });
  });

  it("any value the contract lets the service send reads back to the same micros", async () => {
    const count = fc.integer({ min: 0, max: 2 ** 40 });
    const metrics = fc.record({
      views: count,
      clicks: fc.option(count),
      // Up to 6 decimals, below the 10^12 that DECIMAL(18,6) holds.
      spending: fc.integer({ min: -(10 ** 15), max: 10 ** 15 }).map((micros) => micros / 1e6),
      conversions: fc.option(count),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(metrics, { minLength: 1, maxLength: 6 }), async (values) => {
        const dir = tempDir();
        const rows = values.map((m, i) => ({
          dimensions: { campaign_id: i, date: secondOf("2026-03-01") },
          metrics: m,
        }));
        const records = await writeDays(dir, TEMPLATE, PARQUET, ["2026-03-01"], rows);
        const path = pathIn(dir, TEMPLATE, "2026-03-01");
        expect(await readDayFile(path, PARQUET, METRICS)).toEqual({
          ...records.get("2026-03-01"),
          bytes: statSync(path).size,
        });
      }),
      { numRuns: 15 },
    );
  });

  const damaged = async (change: (bytes: Buffer) => Buffer) => {
    const dir = tempDir();
    const records = await writeDays(dir, TEMPLATE, PARQUET, DAYS, rowsOf(DAYS, 12));
    const path = pathIn(dir, TEMPLATE, "2026-03-01");
    writeFileSync(path, change(readFileSync(path)));
    return { record: records.get("2026-03-01"), read: await readDayFile(path, PARQUET, METRICS), path };
  };

  it("a file cut short, its footer or a metric's page overwritten: a reason, with its digest and size", async () => {
    const cut = await damaged((bytes) => bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    expect(cut.read).toEqual({
      unreadable: "it does not end with PAR1, as a Parquet file does (cut short?)",
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      bytes: statSync(cut.path).size,
    });
    const footer = await damaged((bytes) => {
      const length = bytes.readUInt32LE(bytes.length - 8);
      bytes.fill(0xee, bytes.length - 8 - length, bytes.length - 8);
      return bytes;
    });
    expect(footer.read).toMatchObject({ unreadable: "its Parquet footer cannot be read (damaged or cut short)" });
    // Every byte of the row group overwritten in turn, a few at a time: a reason or other sums, never a throw.
    const { record } = await damaged((bytes) => bytes);
    const size = readFileSync(cut.path.replace(/[^/]+$/, "2026-03-02.parquet")).length;
    let told = 0;
    for (let at = 4; at < Math.min(size, 1200); at += 16) {
      const { read } = await damaged((bytes) => {
        bytes.fill(0xa5, at, at + 8);
        return bytes;
      });
      if ("unreadable" in read) told += 1;
      else expect(read.digest).not.toBe(record?.digest);
    }
    expect(told).toBeGreaterThan(0);
  });

  it("another program's Parquet, garbage and an empty file are unreadable, naming what is wrong", async () => {
    const dir = tempDir();
    const other = join(dir, "other.parquet");
    await duckdb(
      `COPY (SELECT 1::BIGINT AS campaign_id, 2::BIGINT AS views, 3::BIGINT AS clicks, 4.5::DOUBLE AS spending, 1::BIGINT AS conversions) TO '${other}' (FORMAT parquet)`,
    );
    expect(await readDayFile(other, PARQUET, METRICS)).toMatchObject({
      unreadable: 'its column "spending" is DOUBLE, adreport writes INT64 (DECIMAL)',
    });
    const missing = join(dir, "missing.parquet");
    await duckdb(`COPY (SELECT 1::BIGINT AS views) TO '${missing}' (FORMAT parquet)`);
    expect(await readDayFile(missing, PARQUET, METRICS)).toMatchObject({ unreadable: 'it has no column "clicks"' });
    const file = (name: string, bytes: string) => {
      writeFileSync(join(dir, name), bytes);
      return join(dir, name);
    };
    expect(await readDayFile(file("a.parquet", ""), PARQUET, METRICS)).toMatchObject({
      unreadable: "it is too short for a Parquet file (cut short?)",
      bytes: 0,
    });
    expect(await readDayFile(file("b.parquet", "PAR1 garbage in between PAR1"), PARQUET, METRICS)).toMatchObject({
      unreadable: "its Parquet footer cannot be read (damaged or cut short)",
    });
  });

  it("a footer that claims more rows than its pages hold is damaged, told at once, not read into memory", async () => {
    const dir = tempDir();
    const lying = (name: string, rows: bigint) => {
      const writer = new ByteWriter();
      const int64 = (column: string) => ({ name: column, type: "INT64", repetition_type: "OPTIONAL" }) as const;
      const spending = {
        name: "spending",
        type: "INT64",
        repetition_type: "OPTIONAL",
        converted_type: "DECIMAL",
        precision: 18,
        scale: 6,
      } as const;
      const parquet = new ParquetWriter({
        writer,
        schema: [{ name: "schema", num_children: 4 }, int64("views"), int64("clicks"), spending, int64("conversions")],
      });
      parquet.write({ columnData: METRICS.map((name) => ({ name, data: [1n, 2n] })) });
      // What a damaged (or hostile) footer says; the pages still hold two values a column.
      const group = parquet.row_groups[0];
      if (group === undefined) throw new Error("no row group written");
      group.num_rows = rows;
      for (const chunk of group.columns) if (chunk.meta_data) chunk.meta_data.num_values = rows;
      parquet.num_rows = rows;
      parquet.finish();
      writeFileSync(join(dir, name), writer.getBytes());
      return join(dir, name);
    };
    expect(await readDayFile(lying("three.parquet", 3n), PARQUET, METRICS)).toMatchObject({
      unreadable: "its row group 1 has too few rows (damaged)",
    });
    expect(await readDayFile(lying("huge.parquet", 10n ** 12n), PARQUET, METRICS)).toMatchObject({
      unreadable: "its row group 1 says it holds 1000000000000 rows, more than a day file does (damaged)",
    });
    expect(await readDayFile(lying("two.parquet", 2n), PARQUET, METRICS)).toMatchObject({ rows: 2 });
  });

  it("a page header cut by a byte (found by flipping bytes): damaged, told at once, not read for ever", async () => {
    // A day file of a real export with one byte of the conversions data page's header changed: the pages no
    // longer fill their column chunk, and hyparquet's page loop never ended (verify hung at 100% CPU).
    const path = join(import.meta.dirname, "fixtures", "page-header-shortened.parquet");
    expect(await readDayFile(path, PARQUET, METRICS)).toMatchObject({
      unreadable: 'its column "conversions" in row group 1 has a damaged page header',
    });
  });
});

describe("the parquet writer", () => {
  it("writes the same bytes from the same rows, whatever the pages; DuckDB reads every row, NULLs as NULL", async () => {
    const rows = rowsOf(["2026-03-01", "2026-03-02"], ROW_GROUP_ROWS + 100);
    const once = await written(rows, "daily", 1000);
    expect((await written(rows, "daily", 333)).equals(once)).toBe(true);
    const dir = tempDir();
    const path = join(dir, "rows.parquet");
    writeFileSync(path, once);
    expect(await columnTypes(path)).toEqual({
      campaign_id: "BIGINT",
      name: "VARCHAR",
      date: "DATE",
      views: "BIGINT",
      clicks: "BIGINT",
      spending: "DECIMAL(18,6)",
      conversions: "BIGINT",
    });
    const [found] = await duckdb(
      `SELECT count(*) AS n, count(clicks) AS clicks, CAST(sum(views) AS VARCHAR) AS views FROM ${parquetOf(path)}`,
    );
    expect(Number(found?.n)).toBe(rows.length);
    expect(Number(found?.clicks)).toBe(rows.filter((row) => row.metrics.clicks !== null).length);
    expect(Number(found?.views)).toBe(rows.reduce((sum, row) => sum + (row.metrics.views as number), 0));
  });

  it("INT64 words set from numbers are the numbers' two's complement, negative and past 2^32 too", () => {
    const values = [0, 1, -1, 2 ** 32, -(2 ** 32) - 5, 2 ** 53 - 1, -(2 ** 53) + 1, 1_764_288_000_000_000];
    expect([...(int64Column(values) as BigInt64Array)]).toEqual(values.map((value) => BigInt(value)));
    expect(int64Column([1, null, -3])).toEqual([1n, null, -3n]);
  });

  it("a report without rows is a file of its columns that DuckDB reads as empty", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "empty.parquet"), await written([]));
    expect(Object.keys(await columnTypes(join(dir, "empty.parquet")))).toEqual([
      "campaign_id",
      "name",
      "date",
      ...METRICS,
    ]);
    const [found] = await duckdb(`SELECT count(*) AS n FROM ${parquetOf(join(dir, "empty.parquet"))}`);
    expect(Number(found?.n)).toBe(0);
  });

  it("an hour is a UTC timestamp in microseconds; a day in a zone is its local date", async () => {
    const hour = Date.UTC(2026, 2, 1, 13) / 1000;
    const bytes = await written(
      [{ dimensions: { campaign_id: 1, name: "a", date: hour }, metrics: { views: 1 } }],
      "hourly",
    );
    const dir = tempDir();
    writeFileSync(join(dir, "h.parquet"), bytes);
    const [row] = await duckdb(
      `SELECT CAST(epoch_us(date) AS VARCHAR) AS us FROM ${parquetOf(join(dir, "h.parquet"))}`,
    );
    expect(row?.us).toBe(String(hour * 1_000_000));
    // Tokyo's 2026-03-01 starts at 15:00 UTC the day before: its DATE is the local one, as CSV writes it.
    const tokyo = Date.UTC(2026, 1, 28, 15) / 1000;
    const day = await written(
      [{ dimensions: { campaign_id: 1, date: tokyo }, metrics: { views: 1 } }],
      "daily",
      10,
      "Asia/Tokyo",
    );
    writeFileSync(join(dir, "d.parquet"), day);
    const [local] = await duckdb(`SELECT date::VARCHAR AS day FROM ${parquetOf(join(dir, "d.parquet"))}`);
    expect(local?.day).toBe("2026-03-01");
  });

  it("a count that is no whole number or a spending past DECIMAL(18,6) is refused with exit 5's error, naming it", async () => {
    const row = (metrics: ReportRow["metrics"]) => [
      { dimensions: { campaign_id: 1, date: secondOf("2026-03-01") }, metrics },
    ];
    await expect(written(row({ views: 1.5 }))).rejects.toThrow(
      /^the service sent views 1\.5, not a whole number, which the Parquet column needs$/,
    );
    await expect(written(row({ spending: 1e13 }))).rejects.toMatchObject({ exitCode: 5 });
  });

  it("an id or count past 2^53 is named as what it is, and the hint sends to NDJSON: CSV would write another number", async () => {
    // JSON.parse reads 9223372036854775807 as 9223372036854775808: CSV prints 9223372036854776000, another id.
    const id = [
      {
        dimensions: { campaign_id: JSON.parse("9223372036854775807") as number, date: secondOf("2026-03-01") },
        metrics: { views: 1 },
      },
    ];
    const refusal = written(id);
    await expect(refusal).rejects.toThrow(
      /^the service sent campaign_id past 2\^53 \(about 9223372036854775808\): more digits than adreport reads exactly, and the Parquet column needs them all$/,
    );
    await expect(refusal).rejects.toMatchObject({ exitCode: 5, hint: expect.stringMatching(/-f ndjson/) });
    const sum = [{ dimensions: { campaign_id: 1, date: secondOf("2026-03-01") }, metrics: { views: 2 ** 60 } }];
    await expect(written(sum)).rejects.toThrow(/^the service sent views past 2\^53 /);
    const spending = [{ dimensions: { campaign_id: 1, date: secondOf("2026-03-01") }, metrics: { spending: 2.16e11 } }];
    await expect(written(spending)).rejects.toMatchObject({ hint: expect.stringMatching(/-f ndjson/) });
    // A value that is no number at all: CSV keeps it as it was sent, so CSV stays the hint.
    const half = [{ dimensions: { campaign_id: 1, date: secondOf("2026-03-01") }, metrics: { views: 1.5 } }];
    await expect(written(half)).rejects.toMatchObject({ hint: expect.stringMatching(/-f csv/) });
  });
});
