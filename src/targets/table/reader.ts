/**
 * What a database target holds, read for `adreport verify`: per UTC day (an hour's rows counted in their
 * day), of one profile and query scope, the number of rows and each metric's sum, spending in integer micros
 * summed row by row as src/state/day-record.ts addRow sums them. It never creates or changes anything: a
 * missing database file or table reads as no days. A metric column the table lacks is left out of the sums;
 * a metric that is NULL in every row of a day (a column added after the day was written) sums to 0.
 */
import type { DaySums, ReaderOptions, TableAccess, TableReader } from "./access";
import type { TableDialect } from "./column-types";
import { quoteName, type TableLayout } from "./columns";
import { targetFailure } from "./failure";

export type { DaySums, ReaderOptions, TableReader };

/** The SELECT list after the day and the count: one sum per metric the table has. */
export function sumsOf(dialect: TableDialect, layout: TableLayout, has: ReadonlySet<string>): string[] {
  const metrics = layout.columns.filter((c) => (c.kind === "count" || c.kind === "money") && has.has(c.name));
  return metrics.map((c) => dialect.sum(quoteName(c.name), c.kind === "money"));
}

export function metricNames(layout: TableLayout, has: ReadonlySet<string>): string[] {
  return layout.columns.filter((c) => (c.kind === "count" || c.kind === "money") && has.has(c.name)).map((c) => c.name);
}

export function collect(rows: unknown[][], metrics: readonly string[]): DaySums {
  const days: DaySums = new Map();
  for (const [day, count, ...values] of rows) {
    const sums: Record<string, number> = {};
    metrics.forEach((metric, i) => {
      sums[metric] = Number(values[i]);
    });
    days.set(String(day), { rows: Number(count), sums });
  }
  return days;
}

export const NOTHING: Omit<TableReader, "description" | "missing"> = {
  daySums: async () => new Map(),
  close: async () => undefined,
};

/** The table `choice` names, read by its kind's reader; a driver's failure in the kind's words. */
export async function openTableReader(choice: TableAccess, options: ReaderOptions): Promise<TableReader> {
  const what = `the table ${choice.table} in ${choice.where}`;
  const fail = (error: unknown) => targetFailure(choice.failureWords, "read", what, error);
  let reader: TableReader;
  try {
    reader = await choice.reader(options);
  } catch (error) {
    throw fail(error);
  }
  return {
    description: reader.description,
    async daySums(from, to) {
      try {
        return await reader.daySums(from, to);
      } catch (error) {
        throw fail(error);
      }
    },
    async missing() {
      try {
        return await reader.missing();
      } catch (error) {
        throw fail(error);
      }
    },
    close: () => reader.close(),
  };
}
