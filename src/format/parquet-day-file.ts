/**
 * Parquet day files read back with hyparquet (the reading half of hyparquet-writer, which format/parquet.ts
 * writes with). A Parquet file is read from its end (the footer says where each row group is), so this
 * reader holds the bytes it is given in order until end(), then reads the footer and one row group at a
 * time: memory is the file (a day of one report) and one row group's decoded metric columns. Every
 * metric column must be there, of the type adreport writes it in; a file that is cut short, damaged or
 * written by something else is told by its reason, never by a throw.
 */
import { type FileMetaData, parquetMetadata, parquetRead } from "hyparquet";
import { type DayFileRows, type RowMetrics, tellingReasons, UnreadableFile } from "./day-file";
import { metricKind, type SchemaElement, schemaElement } from "./parquet-columns";
import { checkPages } from "./parquet-pages";

/** A day file larger than this is no day adreport wrote (ten million rows and more); it is not held. */
export const MAX_PARQUET_DAY_FILE = 256 * 1024 * 1024;

/**
 * The most rows a row group may say it holds: adreport writes 4,096, other programs up to about a million
 * (pyarrow's 1,048,576, DuckDB's 122,880). A footer that says more is damaged: read, its rows would be
 * made before the pages are found to hold fewer (a footer saying 10^12 ran the process out of memory).
 */
export const MAX_ROW_GROUP_ROWS = 1 << 20;

const MAGIC = Buffer.from("PAR1");

type FoundElement = FileMetaData["schema"][number];

/** The physical type, and for spending the DECIMAL of 6 places; an INT64 annotated INT_64 (DuckDB's) is an INT64. */
function sameType(found: FoundElement, wanted: SchemaElement): boolean {
  const decimal = (element: FoundElement | SchemaElement) => element.converted_type === "DECIMAL";
  if (found.type !== wanted.type || decimal(found) !== decimal(wanted)) return false;
  return !decimal(wanted) || found.scale === wanted.scale;
}

function typeInWords(element: FoundElement | SchemaElement): string {
  const logical = element.converted_type ?? element.logical_type?.type;
  return logical === undefined ? String(element.type) : `${element.type} (${logical})`;
}

function footerOf(file: ArrayBuffer): FileMetaData {
  if (file.byteLength < 12) throw new UnreadableFile("it is too short for a Parquet file (cut short?)");
  const bytes = new Uint8Array(file);
  if (!MAGIC.equals(bytes.subarray(0, 4)))
    throw new UnreadableFile("it does not start with PAR1, as a Parquet file does");
  if (!MAGIC.equals(bytes.subarray(-4))) {
    throw new UnreadableFile("it does not end with PAR1, as a Parquet file does (cut short?)");
  }
  try {
    return parquetMetadata(file);
  } catch {
    throw new UnreadableFile("its Parquet footer cannot be read (damaged or cut short)");
  }
}

/** The metrics' columns, each as adreport writes it, checked once against the footer's schema. */
function checkColumns(metadata: FileMetaData, metrics: readonly string[]): void {
  const leaves = new Map(metadata.schema.slice(1).map((element) => [element.name, element]));
  for (const metric of metrics) {
    const found = leaves.get(metric);
    if (found === undefined) throw new UnreadableFile(`it has no column ${JSON.stringify(metric)}`);
    const wanted = schemaElement(metric, metricKind(metric));
    if (!sameType(found, wanted)) {
      throw new UnreadableFile(
        `its column ${JSON.stringify(metric)} is ${typeInWords(found)}, adreport writes ${typeInWords(wanted)}`,
      );
    }
  }
}

function metricNumber(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return typeof value === "bigint" ? Number(value) : (value as number);
}

async function rowGroupRows(
  file: ArrayBuffer,
  metadata: FileMetaData,
  metrics: readonly string[],
  start: number,
  end: number,
  group: number,
): Promise<unknown[][]> {
  let rows: unknown[][] = [];
  try {
    await parquetRead({
      file,
      metadata,
      columns: [...metrics],
      rowStart: start,
      rowEnd: end,
      onComplete: (data: unknown[][]) => {
        rows = data;
      },
    });
  } catch {
    throw new UnreadableFile(`its row group ${group + 1} cannot be read (damaged)`);
  }
  // Rows past what the pages hold come back with undefined values (a NULL is null).
  if (rows.length !== end - start || rows.some((row) => row.includes(undefined))) {
    throw new UnreadableFile(`its row group ${group + 1} has too few rows (damaged)`);
  }
  return rows;
}

function parquetRows(metrics: readonly string[], onRow: (metrics: RowMetrics) => void) {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    async write(chunk: Buffer) {
      size += chunk.length;
      if (size > MAX_PARQUET_DAY_FILE) {
        throw new UnreadableFile(
          `it is larger than ${MAX_PARQUET_DAY_FILE / 1024 / 1024} MiB, no day file adreport wrote`,
        );
      }
      chunks.push(chunk);
    },
    async end() {
      const whole = Buffer.concat(chunks, size);
      chunks.length = 0;
      const file = whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer;
      const metadata = footerOf(file);
      checkColumns(metadata, metrics);
      let start = 0;
      for (const [group, rowGroup] of metadata.row_groups.entries()) {
        if (rowGroup.num_rows > BigInt(MAX_ROW_GROUP_ROWS)) {
          throw new UnreadableFile(
            `its row group ${group + 1} says it holds ${rowGroup.num_rows} rows, more than a day file does (damaged)`,
          );
        }
        for (const chunk of rowGroup.columns) {
          const column = chunk.meta_data?.path_in_schema[0];
          if (column !== undefined && metrics.includes(column)) checkPages(file, chunk, column, group + 1);
        }
        const end = start + Number(rowGroup.num_rows);
        for (const values of await rowGroupRows(file, metadata, metrics, start, end, group)) {
          const row: RowMetrics = {};
          metrics.forEach((metric, at) => {
            row[metric] = metricNumber(values[at]);
          });
          onRow(row);
        }
        start = end;
      }
    },
  };
}

export const parquetDayFile: DayFileRows = () => (metrics, onRow) => tellingReasons(parquetRows(metrics, onRow));
