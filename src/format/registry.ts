/**
 * The output formats and what each can do. Cheap to import (the CLI's help lists the names); each
 * formatter and day-file reader, with its library, loads only when chosen. Adding a format is its name in
 * core/formats.ts, its file here and its entry below: no other code names a format to decide what it can do.
 */
import { extname } from "node:path";
import type { Dimension } from "../contract";
import { DAY_FILE_FORMATS, type DayFileFormat, FORMAT_NAMES, type FormatName } from "../core/formats";
import type { DayFileOptions, DayFileReader, DayFileRows } from "./day-file";
import type { Formatter } from "./formatter";

export interface FormatEntry {
  readonly name: FormatName;
  /** The format as a sentence names it: `CSV`, `NDJSON`, `chart`. */
  readonly title: string;
  /** File name endings that select this format for --output. */
  readonly extensions: readonly string[];
  /** True when every row is held in memory before anything is written. */
  readonly buffers: boolean;
  load(): Promise<Formatter>;
  /**
   * `{date}` files of this format are read back by `verify` (and their format kept in the job's state):
   * the reader beside the writer it must agree with. Only the formats of DAY_FILE_FORMATS have one.
   */
  readonly dayFile?: { load(): Promise<DayFileRows> };
  /** A picture of the report (a page, a chart), not its data: never written as day files. */
  readonly picture?: boolean;
  /** Sums rows itself: its rows keep the counters they came with, to compute a ratio over several rows. */
  readonly keepsCounters?: boolean;
  /** Ends with a totals row, which covers every row (those --top leaves out too). */
  readonly totals?: boolean;
  /** Writes `date` as the service sent it (epoch seconds) unless --date-format iso; otherwise ISO text. */
  readonly epochDates?: boolean;
  /** Takes CSV's options (FormatOptions): --delimiter, --bom and --spreadsheet (the setting too). */
  readonly csvOptions?: boolean;
  /** What splits its fields, when that is fixed and --delimiter is given anyway (`tabs`). */
  readonly fieldsSplitBy?: string;
  /**
   * Several accounts into one output: their JSON rows as sent, with their profile, as one document (its
   * `meta` by profile) or a row a line. Absent: this formatter over every account's rows, profile first.
   */
  readonly mergedAs?: "json-document" | "json-lines";
  /** Bytes rather than text: never written to a terminal (as curl refuses), only to a file or a pipe. */
  readonly binary?: boolean;
  /**
   * Keeps spending as a decimal of 6 places (millionths), as the ledger sums it: read back, a value is its
   * micros, so a value sent with more places (or a sum's binary drift) comes back rounded.
   */
  readonly spendingInMicros?: boolean;
  /** A dimension the format cannot be drawn without, refused before anything is fetched. */
  readonly needsDimension?: { readonly name: Dimension; readonly why: string; readonly hint: string };
}

/** A format whose day files `verify` reads back. */
export type DayFileEntry = FormatEntry & {
  readonly name: DayFileFormat;
  readonly dayFile: { load(): Promise<DayFileRows> };
};

/** Each name's entry: a format of DAY_FILE_FORMATS must have a reader, another must not. */
type Entries = {
  readonly [N in FormatName]: Omit<FormatEntry, "name" | "dayFile"> &
    (N extends DayFileFormat ? Pick<DayFileEntry, "dayFile"> : { readonly dayFile?: never });
};

const ENTRIES: Entries = {
  table: {
    title: "table",
    extensions: [".txt"],
    buffers: true,
    totals: true,
    load: async () => (await import("./table")).tableFormatter,
  },
  csv: {
    title: "CSV",
    extensions: [".csv"],
    buffers: false,
    csvOptions: true,
    load: async () => (await import("./csv")).csvFormatter,
    dayFile: { load: async () => (await import("./csv-day-file")).csvDayFile },
  },
  tsv: {
    title: "TSV",
    extensions: [".tsv"],
    buffers: false,
    fieldsSplitBy: "tabs",
    load: async () => (await import("./tsv")).tsvFormatter,
    dayFile: { load: async () => (await import("./csv-day-file")).tsvDayFile },
  },
  json: {
    title: "JSON",
    extensions: [".json"],
    buffers: false,
    epochDates: true,
    mergedAs: "json-document",
    load: async () => (await import("./json")).jsonFormatter,
    dayFile: { load: async () => (await import("./json-day-file")).jsonDayFile },
  },
  ndjson: {
    title: "NDJSON",
    extensions: [".ndjson", ".jsonl"],
    buffers: false,
    epochDates: true,
    mergedAs: "json-lines",
    load: async () => (await import("./ndjson")).ndjsonFormatter,
    dayFile: { load: async () => (await import("./json-day-file")).ndjsonDayFile },
  },
  parquet: {
    title: "Parquet",
    extensions: [".parquet"],
    buffers: false,
    binary: true,
    spendingInMicros: true,
    load: async () => (await import("./parquet")).parquetFormatter,
    dayFile: { load: async () => (await import("./parquet-day-file")).parquetDayFile },
  },
  html: {
    title: "HTML",
    extensions: [".html", ".htm"],
    buffers: true,
    picture: true,
    keepsCounters: true,
    totals: true,
    load: async () => (await import("./html")).htmlFormatter,
  },
  chart: {
    title: "chart",
    extensions: [],
    buffers: true,
    picture: true,
    keepsCounters: true,
    needsDimension: {
      name: "date",
      why: "draws a metric over dates",
      hint: "add date to --dims (--dims campaign,date), or use --format html for a bar chart",
    },
    load: async () => (await import("./chart")).chartFormatter,
  },
};

const FORMATS: readonly FormatEntry[] = FORMAT_NAMES.map((name) => ({ name, ...ENTRIES[name] }));

export function formatNamed(name: string): FormatEntry | undefined {
  return FORMATS.find((f) => f.name === name);
}

/** Every ending --output knows, in the registry's order: ".txt, .csv, ...". */
export function knownEndings(): string[] {
  return FORMATS.flatMap((f) => f.extensions);
}

/** The format a file name asks for by its ending, if any. */
export function formatForFile(path: string): FormatEntry | undefined {
  const ending = extname(path).toLowerCase();
  return FORMATS.find((f) => f.extensions.includes(ending));
}

export function isDayFileEntry(entry: FormatEntry): entry is DayFileEntry {
  return entry.dayFile !== undefined && (DAY_FILE_FORMATS as readonly string[]).includes(entry.name);
}

/** The formats whose day files `verify` reads back, in the registry's order. */
export function dayFileEntries(): DayFileEntry[] {
  return FORMATS.filter(isDayFileEntry);
}

/**
 * The format of a job's day files where its state does not say (a state kept before it did): the one
 * their ending names, as for -o, and CSV for an ending of no such format (`.txt`), as adreport read them then.
 */
export function dayFileFormatForFile(path: string): DayFileFormat {
  const entry = formatForFile(path);
  return entry !== undefined && isDayFileEntry(entry) ? entry.name : "csv";
}

/** The reader of a job's day files, loaded once for all of them. */
export async function dayFileReader(format: DayFileFormat, options: DayFileOptions): Promise<DayFileReader> {
  return (await ENTRIES[format].dayFile.load())(options);
}
