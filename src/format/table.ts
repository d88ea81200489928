/**
 * A table for people (cli-table3): numbers right-aligned, spending with 2 decimals, a totals footer.
 * It holds every row in memory before printing, to size its columns; use CSV or NDJSON for big exports.
 * Every name and column title is shown through `printable`: it is text for a terminal, and a name may hold
 * control characters.
 */
import Table from "cli-table3";
import { roundToMicros, rowsOf } from "../contract";
import { relativeChange } from "../core/derived-metrics";
import { printable } from "../core/printable";
import { writeChunk } from "../io/write";
import { cellsOf, columnsOf, peekFirstRow } from "./columns";
import type { Formatter } from "./formatter";

const BOLD = "\u001b[1m";
const NOT_BOLD = "\u001b[22m";

function metricCell(metric: string, value: number | null | undefined): string {
  if (value === undefined) return "";
  if (value === null) return "-";
  if (metric.endsWith("_change")) return `${value > 0 ? "+" : ""}${(value * 100).toFixed(2)}%`;
  if (metric === "spending" || metric === "spending_prev")
    return value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return value.toLocaleString("en-US");
}

/** A column's total: counters are summed; a `_change` is the change of the summed counters, never a sum. */
function totalOf(metric: string, totals: ReadonlyMap<string, number>): number | null {
  if (!metric.endsWith("_change")) return roundToMicros(totals.get(metric) ?? 0);
  const base = metric.slice(0, -"_change".length);
  return relativeChange(totals.get(base), totals.get(`${base}_prev`)) ?? null;
}

export const tableFormatter: Formatter = {
  async write(report, out, options) {
    const { first, all } = await peekFirstRow(report.pages);
    const columns = columnsOf(report.meta, first);
    // Bold is written here rather than through cli-table3's `style` (or util.styleText), whose colour code
    // decides again from the environment and process.stdout; the caller has decided for the stream written to.
    const title = (name: string) => (options.color ? `${BOLD}${printable(name)}${NOT_BOLD}` : printable(name));
    const table = new Table({
      head: [...columns.dimensionKeys, ...columns.metrics].map(title),
      colAligns: [...columns.dimensionKeys.map(() => "left" as const), ...columns.metrics.map(() => "right" as const)],
      style: { head: [], border: [] },
    });
    const totals = new Map<string, number>(columns.metrics.map((m) => [m, 0]));
    let count = 0;
    for await (const row of rowsOf(all)) {
      count += 1;
      const cells = cellsOf(row, columns, report.meta.granularity);
      const dimensionCells = cells
        .slice(0, columns.dimensionKeys.length)
        .map((c) => (c === undefined ? "" : printable(String(c))));
      const metricCells = columns.metrics.map((metric) => {
        const value = row.metrics[metric];
        if (typeof value === "number") totals.set(metric, (totals.get(metric) ?? 0) + value);
        return metricCell(metric, value);
      });
      table.push([...dimensionCells, ...metricCells]);
    }
    if (count > 1 && columns.dimensionKeys.length > 0) {
      table.push([
        `total (${count} rows)`,
        ...columns.dimensionKeys.slice(1).map(() => ""),
        ...columns.metrics.map((m) => metricCell(m, totalOf(m, totals))),
      ]);
    }
    await writeChunk(out, count === 0 && columns.dimensionKeys.length > 0 ? "(no rows)\n" : `${table.toString()}\n`);
  },
};
