/**
 * What a database target holds, read for `adreport verify`: per UTC day (an hour's rows counted in their
 * day), of one profile and query scope, the number of rows and each metric's sum, spending in integer micros
 * summed row by row as src/state/day-record.ts addRow sums them. It never creates or changes anything: a
 * missing database file or table reads as no days. A metric column the table lacks is left out of the sums;
 * a metric that is NULL in every row of a day (a column added after the day was written) sums to 0.
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { ReportRequest } from "../../contract";
import type { Dialect } from "./column-types";
import { quoteName, type TableLayout, tableLayout } from "./columns";
import { targetFailure } from "./failure";
import type { TableChoice } from "./target";

export type DaySums = Map<string, { rows: number; sums: Record<string, number> }>;

export interface TableReader {
  readonly description: string;
  /** Days from `from` to `to` (YYYY-MM-DD, inclusive) that have rows; a day without rows is absent. */
  daySums(from: string, to: string): Promise<DaySums>;
  /** What is gone, said whole (`no database file x.db`, `no table t in x.db`); undefined while the table is there. */
  missing(): Promise<string | undefined>;
  close(): Promise<void>;
}

export interface ReaderOptions {
  profile: string;
  request: ReportRequest;
  cwd: string;
  sqliteAddon: object | undefined;
}

/** The SELECT list after the day and the count: one sum per metric the table has. */
function sumsOf(dialect: Dialect, layout: TableLayout, has: ReadonlySet<string>): string[] {
  const metrics = layout.columns.filter((c) => (c.kind === "count" || c.kind === "money") && has.has(c.name));
  return metrics.map((c) => {
    const name = quoteName(c.name);
    if (c.kind !== "money")
      return dialect === "sqlite" ? `coalesce(sum(${name}), 0)` : `coalesce(sum(${name}), 0)::text`;
    return dialect === "sqlite"
      ? `coalesce(sum(CAST(round(${name} * 1000000) AS INTEGER)), 0)`
      : `coalesce(sum(round(${name}::numeric * 1000000)), 0)::text`;
  });
}

function metricNames(layout: TableLayout, has: ReadonlySet<string>): string[] {
  return layout.columns.filter((c) => (c.kind === "count" || c.kind === "money") && has.has(c.name)).map((c) => c.name);
}

function collect(rows: unknown[][], metrics: readonly string[]): DaySums {
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

const NOTHING: Omit<TableReader, "description" | "missing"> = {
  daySums: async () => new Map(),
  close: async () => undefined,
};

async function sqliteReader(choice: Extract<TableChoice, { kind: "sqlite" }>, options: ReaderOptions) {
  const description = `the table ${choice.table} in ${choice.path}`;
  const path = resolve(options.cwd, choice.path);
  const found = await stat(path).catch(() => undefined);
  if (found === undefined) {
    return { description, ...NOTHING, missing: async () => `no database file ${choice.path}` };
  }
  if (!found.isFile()) throw new Error("not a regular file (a database file is needed)");
  const { default: Database } = await import("better-sqlite3");
  const addon = options.sqliteAddon ? { nativeBinding: options.sqliteAddon as unknown as string } : {};
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: 10_000, ...addon });
  const layout = tableLayout(options.request, options.profile);
  return {
    description,
    async missing() {
      const columns = db.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(choice.table) as string[];
      return columns.length === 0 ? `no table ${choice.table} in ${choice.path}` : undefined;
    },
    async daySums(from: string, to: string): Promise<DaySums> {
      const columns = db.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(choice.table) as string[];
      if (columns.length === 0) return new Map();
      const has = new Set(columns);
      const select = [`substr("date", 1, 10)`, "count(*)", ...sumsOf("sqlite", layout, has)];
      const rows = db
        .prepare(
          `SELECT ${select.join(", ")} FROM ${quoteName(choice.table)}
            WHERE profile = ? AND query_scope = ? AND "date" >= ? AND "date" <= ? GROUP BY 1 ORDER BY 1`,
        )
        .raw()
        .all(layout.profile, layout.scope, from, `${to}~`) as unknown[][];
      return collect(rows, metricNames(layout, has));
    },
    close: async () => {
      db.close();
    },
  };
}

async function postgresReader(choice: Extract<TableChoice, { kind: "postgres" }>, options: ReaderOptions) {
  const description = `the table ${choice.table} in ${choice.shown}`;
  const { connectPostgres, tableColumns } = await import("../postgres/client");
  const client = await connectPostgres(choice.url, choice.connectTimeoutMs);
  const layout = tableLayout(options.request, options.profile);
  return {
    description,
    async missing() {
      const columns = await tableColumns(client, choice.table);
      return columns === undefined ? `no table ${choice.table} in ${choice.shown}` : undefined;
    },
    async daySums(from: string, to: string): Promise<DaySums> {
      await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      try {
        const columns = await tableColumns(client, choice.table);
        if (columns === undefined) return new Map();
        const has = new Set(columns.map((c) => c.name));
        const select = [`to_char("date"::date, 'YYYY-MM-DD')`, "count(*)::text", ...sumsOf("postgres", layout, has)];
        const result = await client.query({
          text: `SELECT ${select.join(", ")} FROM ${quoteName(choice.table)}
                  WHERE profile = $1 AND query_scope = $2 AND "date" >= $3::date AND "date" < $4::date + 1
                  GROUP BY 1 ORDER BY 1`,
          values: [layout.profile, layout.scope, from, to],
          rowMode: "array",
        });
        return collect(result.rows as unknown[][], metricNames(layout, has));
      } finally {
        await client.query("ROLLBACK").catch(() => undefined);
      }
    },
    close: () => client.end().catch(() => undefined),
  };
}

export async function openTableReader(choice: TableChoice, options: ReaderOptions): Promise<TableReader> {
  const where = choice.kind === "sqlite" ? choice.path : choice.shown;
  const fail = (error: unknown) => targetFailure(choice.kind, "read", `the table ${choice.table} in ${where}`, error);
  let reader: TableReader;
  try {
    reader = choice.kind === "sqlite" ? await sqliteReader(choice, options) : await postgresReader(choice, options);
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
