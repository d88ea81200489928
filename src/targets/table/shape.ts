/**
 * Whether an existing table can take a run's rows, decided before any request: every column adreport
 * fills is there with a type that holds its values; no dimension column the run leaves empty (the days it
 * replaces would lose them); no metric column it does not fetch (the same). Metric columns the run fetches
 * and the table lacks are added (never dropped), and so is `run_id`. Anything else is refused, exit 2,
 * the table untouched. Extra columns of other names may stay: the run leaves them NULL.
 */
import { DIMENSION_KEYS, METRICS } from "../../contract";
import { UsageError } from "../../core/errors";
import { type ColumnUse, type TableDialect, whatGoesIn } from "./column-types";
import type { TableColumn, TableLayout } from "./columns";

export interface FoundColumn {
  name: string;
  /** The declared type: pragma_table_info's `type` in SQLite, format_type() in PostgreSQL. */
  type: string;
}

export const RUN_ID_COLUMN = "run_id";

/** The columns of the index a new table gets (every run deletes its days by them). */
export const DAYS_INDEX_COLUMNS = 'profile, query_scope, "date"';

/** The columns adreport adds to its own after the data: what each row belongs to, and when it came. */
export const BOOKKEEPING: ReadonlyArray<{ name: string; use: ColumnUse }> = [
  { name: "profile", use: "label" },
  { name: "query_scope", use: "label" },
  { name: "exported_at", use: "stamp" },
];

export interface TableShape {
  /** Metric columns to add (the run fetches them, the table lacks them). */
  addMetrics: TableColumn[];
  /** The table has no `run_id` yet. */
  addRunId: boolean;
}

const ALL_DIMENSION_KEYS = new Set(Object.values(DIMENSION_KEYS).flat());
const ANOTHER_TABLE = "write to another --table (adreport makes it), or drop this one";

function plural(names: readonly string[], one: string, many: string): string {
  return `${names.length === 1 ? one : many} ${names.join(", ")}`;
}

export function tableShape(
  description: string,
  layout: TableLayout,
  found: readonly FoundColumn[] | undefined,
  dialect: TableDialect,
): TableShape {
  if (found === undefined) return { addMetrics: [], addRunId: false };
  const byName = new Map(found.map((column) => [column.name, column]));
  const needed: Array<{ name: string; use: ColumnUse }> = [
    ...layout.columns
      .filter((c) => c.kind !== "count" && c.kind !== "money")
      .map((c) => ({ name: c.name, use: c.kind })),
    ...BOOKKEEPING,
  ];
  const missing = needed.filter((c) => !byName.has(c.name)).map((c) => c.name);
  if (missing.length > 0) {
    throw new UsageError(
      `${description} has no ${plural(missing, "column", "columns")}, which adreport fills: it was not made by adreport for these --dims`,
      { hint: ANOTHER_TABLE },
    );
  }
  const typed = [
    ...needed,
    ...layout.columns
      .filter((c) => c.kind === "count" || c.kind === "money")
      .map((c) => ({ name: c.name, use: c.kind })),
    { name: RUN_ID_COLUMN, use: "label" as const },
  ];
  for (const { name, use } of typed) {
    const column = byName.get(name);
    if (column === undefined || dialect.holds(use, column.type, layout.hourly)) continue;
    const wanted = dialect.columnType(use, layout.hourly);
    throw new UsageError(
      `${description} has the column ${name} of type ${column.type || "(none)"}, which cannot hold ${whatGoesIn(use, layout.hourly)}: adreport makes it ${wanted}`,
      { hint: `change the column's type to ${wanted}, or ${ANOTHER_TABLE}` },
    );
  }
  const filled = new Set(layout.columns.map((c) => c.name));
  const unfilled = found.map((c) => c.name).filter((name) => ALL_DIMENSION_KEYS.has(name) && !filled.has(name));
  if (unfilled.length > 0) {
    throw new UsageError(
      `${description} has the dimension ${plural(unfilled, "column", "columns")}, which --dims does not fill: the days replaced would have none`,
      { hint: `the table holds another --dims; ${ANOTHER_TABLE}` },
    );
  }
  refuseFewerMetrics(description, [...byName.keys()], layout);
  const addMetrics = layout.columns.filter((c) => (c.kind === "count" || c.kind === "money") && !byName.has(c.name));
  return { addMetrics, addRunId: !byName.has(RUN_ID_COLUMN) };
}

/**
 * A run replaces whole rows: metric columns of the table it does not fetch would be NULL in every day it
 * replaces. Refused (exit 2) before any request; a table may gain metrics, never silently lose their values.
 */
function refuseFewerMetrics(description: string, columns: readonly string[], layout: TableLayout): void {
  const metrics = layout.columns.filter((c) => c.kind === "count" || c.kind === "money").map((c) => c.name);
  const kept = columns.filter((name) => (METRICS as readonly string[]).includes(name));
  const missing = kept.filter((name) => !metrics.includes(name));
  if (missing.length === 0) return;
  const all = [...kept, ...metrics.filter((m) => !kept.includes(m))];
  throw new UsageError(
    `${description} has the metric ${plural(missing, "column", "columns")}, which --metrics does not list: the days replaced would have none`,
    { hint: `list every metric the table keeps (--metrics ${all.join(",")}), or write to another --table` },
  );
}

/** A table whose owner is another role: a metric column it lacks cannot be added by this run. */
export function refuseUnalterable(description: string, table: string, shape: TableShape, dialect: TableDialect): void {
  if (shape.addMetrics.length === 0) return;
  const names = shape.addMetrics.map((c) => c.name);
  const adds = shape.addMetrics.map((c) => `ADD COLUMN ${c.name} ${dialect.columnType(c.kind, false)}`).join(", ");
  throw new UsageError(
    `${description} has no ${plural(names, "column", "columns")} for the metrics --metrics lists, and only the table's owner may add ${names.length === 1 ? "it" : "them"}`,
    { hint: `as its owner: ALTER TABLE ${table} ${adds}; or leave ${names.join(", ")} out of --metrics` },
  );
}
