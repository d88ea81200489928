/**
 * --fields: the columns chosen, in order. Text formats take the list as their columns; JSON and NDJSON rows
 * keep only the chosen dimension keys and metrics, in that order, in the API's row shape.
 */
import type { ReportRow } from "../contract";
import type { ReportStream } from "../contract/report-stream";
import { rewritePages } from "./pages";

function pick<T>(from: Record<string, T>, names: readonly string[]): Record<string, T> {
  const picked: Record<string, T> = {};
  for (const name of names) if (Object.hasOwn(from, name)) picked[name] = from[name] as T;
  return picked;
}

export function pickFields(report: ReportStream, fields: readonly string[]): ReportStream {
  const metrics = fields.filter((f) => report.meta.metrics.includes(f));
  const dimensionKeys = fields.filter((f) => !metrics.includes(f));
  return {
    ...report,
    fields,
    meta: { ...report.meta, metrics },
    pages: rewritePages(report.pages, (rows) =>
      rows.map(
        (row): ReportRow => ({
          ...row,
          dimensions: pick(row.dimensions, dimensionKeys),
          metrics: pick(row.metrics, metrics),
        }),
      ),
    ),
  };
}
