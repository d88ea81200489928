/**
 * CSV and TSV day files read back with csv-parse (the parsing half of csv-stringify, which format/csv.ts
 * writes with): the header names the columns, every row has as many fields, and a metric's cell is the
 * number the formatter wrote (String(n), read back to the same double) or empty for a value the service
 * did not send. TSV (format/tsv.ts) is never quoted: a tab always splits two fields.
 */
import { finished } from "node:stream/promises";
import { CsvError, type Options, Parser } from "csv-parse";
import { type DayFileRows, MAX_LINE_BYTES, type RowMetrics, tellingReasons, UnreadableFile } from "./day-file";

/** What String(n) writes for a finite number, and nothing Number() would also take ("", " 1", "0x10"). */
const NUMBER_TEXT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

interface CsvLayout {
  /** The field delimiter: the CSV's, or a tab for TSV. */
  delimiter: string;
  /** False for TSV, whose fields are never quoted. */
  quoted: boolean;
}

function parserOptions(layout: CsvLayout): Options {
  return {
    delimiter: layout.delimiter,
    quote: layout.quoted ? '"' : null,
    // A byte-order mark (--bom, --spreadsheet) is dropped whether or not the export asked for one.
    bom: true,
    max_record_size: MAX_LINE_BYTES,
  };
}

/** The metrics' places in the header, checked once. */
function metricColumns(header: string[], metrics: readonly string[]): Array<[string, number]> {
  return metrics.map((metric) => {
    const at = header.indexOf(metric);
    if (at === -1) throw new UnreadableFile(`line 1: the header has no column ${JSON.stringify(metric)}`);
    return [metric, at];
  });
}

function metricValue(text: string, metric: string, row: number): number | null {
  if (text === "") return null;
  const value = NUMBER_TEXT.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value)) {
    throw new UnreadableFile(`row ${row}: ${metric} is ${JSON.stringify(text.slice(0, 40))}, not a number`);
  }
  return value;
}

/** csv-parse's own errors, in the reader's words: the line and what is wrong there. */
function unreadable(error: unknown): Error {
  if (!(error instanceof CsvError)) return error instanceof Error ? error : new Error(String(error));
  const at = typeof error.lines === "number" ? `line ${error.lines}: ` : "";
  if (error.code === "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH" && Array.isArray(error.record)) {
    const header = /expect (\d+)/.exec(error.message)?.[1] ?? "another number";
    return new UnreadableFile(`${at}${error.record.length} fields, the header has ${header}`);
  }
  const words: Partial<Record<string, string>> = {
    CSV_QUOTE_NOT_CLOSED: "a quoted field is not closed (the file is cut short?)",
    INVALID_OPENING_QUOTE: "a quote inside a field that is not quoted",
    CSV_INVALID_CLOSING_QUOTE: "text after a quoted field's closing quote",
    CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: "text after a quoted field's closing quote",
    CSV_MAX_RECORD_SIZE: `a row longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB`,
  };
  return new UnreadableFile(`${at}${words[error.code] ?? error.message.split(":")[0]}`);
}

/**
 * csv-parse checks that every row has the header's number of fields (its line in the error); a metric
 * cell that is no number is told by its row, counted after the header, as a quoted name may span lines.
 */
function csvRows(metrics: readonly string[], layout: CsvLayout, onRow: (metrics: RowMetrics) => void) {
  let columns: Array<[string, number]> | undefined;
  let row = 0;
  let failure: Error | undefined;
  const parser = new Parser(parserOptions(layout));
  parser.on("data", (fields: string[]) => {
    if (failure !== undefined) return;
    try {
      if (columns === undefined) {
        columns = metricColumns(fields, metrics);
        return;
      }
      row += 1;
      const values: Record<string, number | null> = {};
      for (const [metric, at] of columns) values[metric] = metricValue(fields[at] as string, metric, row);
      onRow(values);
    } catch (error) {
      failure = error as Error;
    }
  });
  parser.on("error", (error) => {
    failure ??= unreadable(error);
  });
  const check = () => {
    if (failure !== undefined) throw failure;
  };
  return {
    async write(chunk: Buffer) {
      await new Promise<void>((resolve) => parser.write(chunk, () => resolve()));
      check();
    },
    async end() {
      parser.end();
      await finished(parser).catch(() => undefined);
      check();
      if (columns === undefined) throw new UnreadableFile("the file is empty: no header line");
    },
  };
}

export const csvDayFile: DayFileRows = (options) => (metrics, onRow) =>
  tellingReasons(csvRows(metrics, { delimiter: options.delimiter, quoted: true }, onRow));

export const tsvDayFile: DayFileRows = () => (metrics, onRow) =>
  tellingReasons(csvRows(metrics, { delimiter: "\t", quoted: false }, onRow));
