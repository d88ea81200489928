/**
 * The registry walked: every format that says its day files are read back has a reader that reads what its
 * own formatter wrote (every row's metrics, in order, a few bytes at a time so characters and rows split
 * between chunks), and tells a file it did not write; and what each entry says agrees with the rest.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { ReportRow } from "../../../src/contract";
import { DAY_FILE_FORMATS, FORMAT_NAMES } from "../../../src/core/formats";
import type { DayFileOptions, DayFileReader, RowMetrics } from "../../../src/format/day-file";
import {
  dayFileEntries,
  dayFileFormatForFile,
  dayFileReader,
  type FormatEntry,
  formatNamed,
  isDayFileEntry,
} from "../../../src/format/registry";
import { METRICS, rowsOf } from "../../helpers/day-files-written";

const ENTRIES = FORMAT_NAMES.map((name) => formatNamed(name) as FormatEntry);
const OPTIONS: Array<[string, DayFileOptions]> = [
  ["plain", { delimiter: ",", bom: false, spreadsheet: false }],
  ["; with a byte-order mark, for spreadsheets", { delimiter: ";", bom: true, spreadsheet: true }],
];
const ROWS = rowsOf(["2026-03-01", "2026-03-02"], 60);

async function written(entry: FormatEntry, rows: readonly ReportRow[], options: DayFileOptions): Promise<Buffer> {
  const formatter = await entry.load();
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk));
  const meta = {
    granularity: "daily",
    dimensions: ["campaign", "date"],
    metrics: METRICS,
    total: rows.length,
    page: 1,
    limit: 25,
    has_more: false,
  };
  async function* pages() {
    for (let at = 0; at < rows.length; at += 25) yield { rows: rows.slice(at, at + 25) };
  }
  await formatter.write({ meta, totalKnown: true, pages: pages() }, out, { ...options, color: false });
  return Buffer.concat(chunks);
}

function inMicros(metrics: RowMetrics): RowMetrics {
  const spending = metrics.spending;
  return typeof spending === "number" ? { ...metrics, spending: Math.round(spending * 1e6) / 1e6 } : metrics;
}

/** The rows' metrics the reader hands over, or why the bytes are not the format's. */
async function read(reader: DayFileReader, bytes: Buffer, chunk: number): Promise<RowMetrics[] | string> {
  const found: RowMetrics[] = [];
  const rows = reader(METRICS, (metrics) => found.push(metrics));
  for (let at = 0; at < bytes.length; at += chunk) {
    const reason = await rows.write(bytes.subarray(at, at + chunk));
    if (reason !== undefined) return reason;
  }
  return (await rows.end()) ?? found;
}

describe("the format registry", () => {
  it("gives a day-file reader to the formats of DAY_FILE_FORMATS and no other", () => {
    expect(ENTRIES.every((entry) => entry !== undefined)).toBe(true);
    expect(dayFileEntries().map((entry) => entry.name)).toEqual([...DAY_FILE_FORMATS]);
    for (const entry of ENTRIES) expect(entry.dayFile !== undefined).toBe(isDayFileEntry(entry));
  });

  it("never reads a picture back as day files (pictures keep their counters); only CSV takes CSV's options", () => {
    for (const entry of ENTRIES) {
      if (entry.picture === true) expect(entry.dayFile).toBeUndefined();
      if (entry.picture === true) expect(entry.keepsCounters).toBe(true);
    }
    expect(ENTRIES.filter((entry) => entry.csvOptions === true).map((entry) => entry.name)).toEqual(["csv"]);
  });

  it("reads a state's day files by their ending where the state does not say, CSV for any other", () => {
    expect(dayFileFormatForFile("d/{date}.tsv")).toBe("tsv");
    expect(dayFileFormatForFile("d/{date}.JSONL")).toBe("ndjson");
    expect(dayFileFormatForFile("d/{date}.txt")).toBe("csv");
    expect(dayFileFormatForFile("d/{date}.html")).toBe("csv");
  });

  describe.each(dayFileEntries().map((entry) => [entry.name, entry] as const))("%s day files", (_name, entry) => {
    it.each(OPTIONS)("read back what the formatter wrote (%s)", async (_options, options) => {
      const bytes = await written(entry, ROWS, options);
      const reader = await dayFileReader(entry.name, options);
      // A format that keeps spending as a decimal of 6 places gives back its micros, as the ledger counts it.
      const expected = ROWS.map((row) => (entry.spendingInMicros === true ? inMicros(row.metrics) : row.metrics));
      for (const chunk of [7, 4096, bytes.length]) expect(await read(reader, bytes, chunk)).toEqual(expected);
      // A day without rows is a file too.
      expect(await read(reader, await written(entry, [], options), 3)).toEqual([]);
    });

    it("tell a file their formatter did not write", async () => {
      const reader = await dayFileReader(entry.name, OPTIONS[0]?.[1] as DayFileOptions);
      for (const text of ["garbage\n1,2,3\n", "\u0000\u0001\n"]) {
        // A text format names the line; a binary one, what of it the bytes are not (`it does not start with PAR1`).
        expect(await read(reader, Buffer.from(text), 5)).toMatch(entry.binary === true ? /^it .+/ : /^line \d+: /);
      }
    });
  });
});
