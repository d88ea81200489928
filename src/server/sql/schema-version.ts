/**
 * Which layout a database holds, and the way up from an older one (`adreport serve upgrade`), the same on
 * both backends. `schema_info` records the layout's `version` and, from version 2 on, the `counters`
 * columns its tables hold: a counter added to the counter table (model/counters.ts) is then a column the
 * upgrade adds to each table of counts that holds it, at 0 for the hours already loaded, with no step of
 * its own written here. A change a counter cannot express is a new version and its step in STEPS.
 * Every step only adds, in one transaction with the check that decided it.
 */
import { COUNTERS } from "../model/counters";
import { columnsIn } from "./ddl";
import type { SqlDialect } from "./dialect";
import { COUNT_TABLES, countersOf } from "./fact-columns";

export const SCHEMA_VERSION = 2;

/** The counter columns of every version-1 database: what version 1 was, whatever the table says now. */
const VERSION_1_COUNTERS = "views,clicks,bot_clicks,conversions,spending_micros";

/** What version n adds to version n - 1. */
const STEPS: Record<number, readonly string[]> = {
  2: [`INSERT INTO schema_info (key, value) VALUES ('counters', '${VERSION_1_COUNTERS}')`],
};

const COUNTER_COLUMNS = COUNTERS.map((c) => c.column);

/** The rows of schema_info in a database made now. */
export const NEW_SCHEMA_INFO: ReadonlyArray<readonly [string, string]> = [
  ["version", String(SCHEMA_VERSION)],
  ["counters", COUNTER_COLUMNS.join(",")],
];

export const SCHEMA_INFO_SQL = "SELECT key, value FROM schema_info";

export type SchemaState =
  | { kind: "current" }
  /** An upgrade brings it to this version: an older version, or counters the table has and it lacks. */
  | { kind: "older"; version: number; missing: string[] }
  /** Made by a newer adreport: a later version, or counters this one does not know. */
  | { kind: "newer"; version: number; unknown: string[] }
  | { kind: "foreign" };

/** What the rows of schema_info (key, value) say of the database. */
export function schemaState(rows: ReadonlyArray<{ key: string; value: string }>): SchemaState {
  const info = new Map(rows.map((r) => [r.key, r.value]));
  const text = info.get("version");
  if (text === undefined || !/^[1-9][0-9]{0,8}$/.test(text)) return { kind: "foreign" };
  const version = Number(text);
  if (version > SCHEMA_VERSION) return { kind: "newer", version, unknown: [] };
  const held = (version < 2 ? VERSION_1_COUNTERS : (info.get("counters") ?? "")).split(",").filter(Boolean);
  const unknown = held.filter((c) => !COUNTER_COLUMNS.includes(c));
  if (unknown.length > 0) return { kind: "newer", version, unknown };
  const missing = COUNTER_COLUMNS.filter((c) => !held.includes(c));
  if (version < SCHEMA_VERSION || missing.length > 0) return { kind: "older", version, missing };
  return { kind: "current" };
}

/** The statements that bring an older database to this layout: each version's step, then the missing counters. */
export function upgradeStatements(state: { version: number; missing: readonly string[] }, dialect: SqlDialect) {
  const statements: string[] = [];
  for (let version = state.version + 1; version <= SCHEMA_VERSION; version += 1) {
    statements.push(...(STEPS[version] ?? []));
  }
  for (const counter of COUNTERS.filter((c) => state.missing.includes(c.column))) {
    for (const table of COUNT_TABLES.filter((t) => countersOf(t).includes(counter))) {
      const column = columnsIn(dialect, `${counter.column} INT NOT NULL DEFAULT 0`);
      statements.push(`ALTER TABLE ${table.name} ADD COLUMN ${column}`);
    }
  }
  for (const [key, value] of NEW_SCHEMA_INFO) {
    statements.push(`UPDATE schema_info SET value = '${value}' WHERE key = '${key}'`);
  }
  return statements;
}
