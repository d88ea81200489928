/**
 * A table for people (cli-table3): numbers right-aligned, money with 2 decimals, ctr and cvr as percentages
 * (see metric-text.ts), a rule under the header and above the totals footer but none between rows, and with
 * --compare a title naming both periods. It holds every row in memory before printing, to size its columns;
 * use CSV or NDJSON for big exports.
 * Every name and column title is shown through `printable`: it is text for a terminal, and a name may hold
 * control characters.
 */
import Table from "cli-table3";
import { METRICS, roundToMicros, rowsOf } from "../contract";
import type { ReportTotals } from "../contract/report-stream";
import { metricFrom, PREVIOUS_SUFFIX } from "../core/derived-metrics";
import { printable } from "../core/printable";
import { writeChunk } from "../io/write";
import { type Columns, cellsOf, columnsOf, peekFirstRow } from "./columns";
import { comparedTitle } from "./compared-title";
import type { Formatter } from "./formatter";
import { metricText } from "./metric-text";

const BOLD = "\u001b[1m";
const COUNTERS: readonly string[] = METRICS;

/** A metric that adds up over rows: a counter the service sends, of this period or the previous one. */
function isCounter(metric: string): boolean {
  return COUNTERS.includes(metric.endsWith(PREVIOUS_SUFFIX) ? metric.slice(0, -PREVIOUS_SUFFIX.length) : metric);
}
const NOT_BOLD = "\u001b[22m";

/** The shown metrics' totals from summed counters: counters as summed, ratios and changes computed from them. */
function totalsFromSums(columns: Columns, sums: ReadonlyMap<string, number>): Record<string, number | null> {
  const counter = (name: string) => {
    const sum = sums.get(name);
    return sum === undefined ? undefined : roundToMicros(sum);
  };
  const totals: Record<string, number | null> = {};
  for (const metric of columns.metrics) {
    const value = metricFrom(metric, counter);
    totals[metric] = value !== undefined && Number.isFinite(value) ? value : null;
  }
  return totals;
}

/**
 * The footer: its label in the first dimension's column (--fields may put metrics before it), the totals
 * under the metrics. A table without a dimension column has no place for the label, and no footer.
 */
function totalsLine(columns: Columns, totals: ReportTotals): string[] | undefined {
  const label = columns.order.findIndex((column) => !column.metric);
  if (totals.rows <= 1 || label === -1) return undefined;
  return columns.order.map(({ name, metric }, i) =>
    i === label
      ? `total (${totals.rows.toLocaleString("en-US")} rows)`
      : metric
        ? metricText(name, totals.metrics[name])
        : "",
  );
}

/**
 * The table's lines, with the header's rule drawn again above the totals footer. Every cell is one line
 * (`printable` escapes line breaks): the lines are the top border, the header, its rule, the rows, then the
 * footer and the bottom border.
 */
function drawn(table: InstanceType<typeof Table>, hasFooter: boolean): string {
  const lines = table.toString().split("\n");
  if (hasFooter && lines.length > 4) lines.splice(lines.length - 2, 0, lines[2] as string);
  return lines.join("\n");
}

export const tableFormatter: Formatter = {
  async write(report, out, options) {
    const { first, all } = await peekFirstRow(report.pages);
    const columns = columnsOf(report.meta, first, report.fields);
    // Bold is written here rather than through cli-table3's `style` (or util.styleText), whose colour code
    // decides again from the environment and process.stdout; the caller has decided for the stream written to.
    const title = (name: string) => (options.color ? `${BOLD}${printable(name)}${NOT_BOLD}` : printable(name));
    const table = new Table({
      head: columns.order.map((c) => title(c.name)),
      colAligns: columns.order.map((c) => (c.metric ? ("right" as const) : ("left" as const))),
      // compact: no rule between rows; the header's rule stays.
      style: { head: [], border: [], compact: true },
    });
    // Without totals from the transform stages, the counters rows carry are summed here (shown or kept for
    // ratios); a ratio is then computed from the sums, never summed.
    const sums = new Map<string, number>(columns.metrics.filter(isCounter).map((m) => [m, 0]));
    let count = 0;
    for await (const row of rowsOf(all)) {
      count += 1;
      const cells = cellsOf(row, columns, report.meta.granularity);
      table.push(
        columns.order.map(({ name, metric }, i) => {
          if (!metric) return cells[i] === undefined ? "" : printable(String(cells[i]));
          return metricText(name, row.metrics[name]);
        }),
      );
      for (const name in row.metrics) {
        const value = row.metrics[name];
        if (typeof value === "number" && isCounter(name)) sums.set(name, (sums.get(name) ?? 0) + value);
      }
    }
    const totals: ReportTotals = report.totals?.() ?? { rows: count, metrics: totalsFromSums(columns, sums) };
    const footer = totalsLine(columns, totals);
    if (footer !== undefined) table.push(footer);
    const heading = comparedTitle(report.meta);
    const above = heading === undefined ? "" : `${printable(heading)}\n`;
    const body = count === 0 && columns.dimensionKeys.length > 0 ? "(no rows)" : drawn(table, footer !== undefined);
    await writeChunk(out, `${above}${body}\n`);
  },
};
