/**
 * Parquet through hyparquet-writer (pure JavaScript, loaded only for this format): CSV's columns
 * (format/columns.ts) typed (format/parquet-columns.ts), snappy-compressed, written a row group at a time,
 * so memory holds one row group however long the report. Deterministic: the same rows give the same
 * bytes (no time, no random id, no version inside), so a `{date}` day file rewritten with the same data
 * is left as it was.
 */
import type { Writable } from "node:stream";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import { bucketUnitOf } from "../core/calendar";
import { writeChunk } from "../io/write";
import { type Columns, columnsOf, peekFirstRow } from "./columns";
import type { Formatter } from "./formatter";
import {
  type ColumnKind,
  type ColumnValue,
  columnValue,
  dimensionKind,
  int64Column,
  isInt64,
  metricKind,
  schemaElement,
} from "./parquet-columns";

/**
 * Rows a row group holds. Large enough to compress well (dictionaries of names and dates per group),
 * small enough that an export, or every day of a `{date}` export open at once, stays in its memory goal:
 * 1M generated hourly rows here took 2.4 s of CPU at 8k rows a group, 2.9 s at 16k and 3.4 s at 64k (values
 * held longer are promoted and collected as old), for a file 6% larger than at 16k (bench/columnar.ts).
 */
export const ROW_GROUP_ROWS = 8_192;

/** created_by: no version, so an upgrade of adreport does not change every day file's bytes. */
export const CREATED_BY = "adreport";

interface Column {
  name: string;
  metric: boolean;
  kind: ColumnKind;
  values: ColumnValue[];
  /**
   * A text column's values met in this row group, each kept once: the rows repeat a few names, and a
   * parsed row's own copy of one would otherwise live as long as the row group (old-generation garbage).
   */
  texts: Map<string, string> | undefined;
}

function typedColumns(columns: Columns, hourly: boolean): Column[] {
  return columns.order.map(({ name, metric }) => ({
    name,
    metric,
    kind: metric ? metricKind(name) : dimensionKind(name, hourly),
    values: [],
    texts: !metric && dimensionKind(name, hourly) === "text" ? new Map() : undefined,
  }));
}

/** The bytes the writer has made since the last call, copied out (its buffer is reused). */
function takeBytes(writer: ByteWriter): Buffer {
  const bytes = Buffer.from(writer.getBytes());
  writer.index = 0;
  return bytes;
}

export const parquetFormatter: Formatter = {
  async write(report, out: Writable) {
    const { first, all } = await peekFirstRow(report.pages);
    const columns = columnsOf(report.meta, first, report.fields);
    const typed = typedColumns(columns, bucketUnitOf(report.meta.granularity) === "hour");
    const writer = new ByteWriter(1 << 20);
    const parquet = new ParquetWriter({
      writer,
      schema: [{ name: "schema", num_children: typed.length }, ...typed.map((c) => schemaElement(c.name, c.kind))],
      codec: "SNAPPY",
      createdBy: CREATED_BY,
    });
    let held = 0;
    const flush = async () => {
      if (held > 0) {
        parquet.write({
          // Min and max of names (cut to 16 bytes) prune little; of ids, dates and metrics they let readers skip groups.
          columnData: typed.map((c) => ({
            name: c.name,
            data: isInt64(c.kind) ? int64Column(c.values) : c.values,
            statistics: c.kind !== "text",
          })),
          rowGroupSize: held,
        });
        for (const c of typed) {
          c.values = [];
          c.texts?.clear();
        }
        held = 0;
      }
      await writeChunk(out, takeBytes(writer));
    };
    for await (const page of all) {
      for (const row of page.rows) {
        for (const c of typed) {
          const value = c.metric ? row.metrics[c.name] : row.dimensions[c.name];
          const cell = columnValue(c.kind, c.name, value, columns.zone);
          if (c.texts !== undefined && typeof cell === "string") {
            const kept = c.texts.get(cell);
            if (kept === undefined) c.texts.set(cell, cell);
            c.values.push(kept ?? cell);
          } else c.values.push(cell);
        }
        held += 1;
        if (held === ROW_GROUP_ROWS) await flush();
      }
    }
    await flush();
    parquet.finish();
    await writeChunk(out, takeBytes(writer));
  },
};
