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
 * Rows a row group holds, the same for every file so that a day's bytes depend on its rows alone (a day
 * written by another run, in another window, must come out the same). Small enough that a `{date}` export,
 * which holds a row group for every day being written, stays near its memory goal: 1M hourly rows into 35
 * day files peaked at 123 MB here (CSV 106 MB; 141 MB at 8k rows), one 1M-row file at 98 MB; the file is
 * 0.16x the CSV's (0.14x at 8k). Larger groups also cost CPU: values held longer are collected as old.
 */
export const ROW_GROUP_ROWS = 4_096;

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
    // Small at first: a `{date}` export has a writer open for every day; it grows to a row group's bytes.
    const writer = new ByteWriter(1 << 16);
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
