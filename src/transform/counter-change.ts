/**
 * `<counter>_change` for each counter a comparison gave a `<counter>_prev`: the relative change
 * (relativeChange, core/derived-metrics.ts), null when the previous value is 0 or missing.
 * Stands in for the derived-metrics stage until it computes every `_change` itself: the integrator may
 * replace this stage with that one.
 */
import type { ReportRow } from "../contract";
import { relativeChange } from "../core/derived-metrics";
import type { ReportStream } from "../format/formatter";
import { previousName } from "./compare";

function changeName(metric: string): string {
  return `${metric}_change`;
}

function value(row: ReportRow, name: string): number | undefined {
  return row.metrics[name] ?? undefined;
}

export function addCounterChanges(report: ReportStream): ReportStream {
  const names = report.meta.metrics;
  const compared = names.filter((m) => names.includes(previousName(m)));
  if (compared.length === 0) return report;
  // Each change right after its `_prev`: clicks, clicks_prev, clicks_change.
  const metrics = names.flatMap((m) => {
    const counter = compared.find((c) => previousName(c) === m);
    return counter === undefined ? [m] : [m, changeName(counter)];
  });
  async function* pages() {
    for await (const page of report.pages) {
      yield {
        rows: page.rows.map((row) => {
          const changes: Record<string, number | null> = {};
          for (const m of compared)
            changes[changeName(m)] = relativeChange(value(row, m), value(row, previousName(m))) ?? null;
          // In meta's order, so JSON reads like the CSV columns.
          const ordered: Record<string, number | null> = {};
          for (const m of metrics) ordered[m] = changes[m] ?? row.metrics[m] ?? null;
          for (const [m, v] of Object.entries(row.metrics)) if (!(m in ordered)) ordered[m] = v;
          return { ...row, metrics: ordered } satisfies ReportRow;
        }),
      };
    }
  }
  return { ...report, meta: { ...report.meta, metrics }, pages: pages() };
}
