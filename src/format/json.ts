/**
 * JSON: `{"meta": ..., "data": [...]}` with every row of every page, rows in the API's shape. Streams when
 * the number of rows is known up front; a merged report over 90 days is held until its count is known.
 * `meta` keeps what the service said of the report, without the fields that describe one page, and adds
 * the range asked for (`from`, `to`), which the service's meta does not carry.
 */
import type { ReportMeta, ReportRow } from "../contract";
import { writeChunk } from "../io/write";
import type { FormatOptions, Formatter } from "./formatter";
import { joinRows } from "./rows-as-sent";

function exportMeta(meta: ReportMeta, total: number, range: FormatOptions["range"]): Record<string, unknown> {
  const { page: _page, limit: _limit, has_more: _hasMore, ...rest } = meta;
  return { ...rest, ...(range && { from: range.from, to: range.to }), total };
}

export const jsonFormatter: Formatter = {
  async write(report, out, options) {
    if (!report.totalKnown) {
      const rows: ReportRow[] = [];
      for await (const page of report.pages) rows.push(...page.rows);
      const body = rows.map((row) => JSON.stringify(row)).join(",\n");
      await writeChunk(
        out,
        `{"meta":${JSON.stringify(exportMeta(report.meta, rows.length, options.range))},"data":[\n${body}\n]}\n`,
      );
      return;
    }
    await writeChunk(
      out,
      `{"meta":${JSON.stringify(exportMeta(report.meta, report.meta.total, options.range))},"data":[`,
    );
    let separator = "\n";
    for await (const page of report.pages) {
      if (page.rows.length === 0) continue;
      await writeChunk(out, separator);
      await writeChunk(out, joinRows(page, ",\n", ""));
      separator = ",\n";
    }
    await writeChunk(out, "\n]}\n");
  },
};
