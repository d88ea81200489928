/** `-o sqlite:PATH`: a table in a SQLite file, kept by a job as the file's absolute path and the table. */
import { resolve } from "node:path";
import { UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import type { JobTarget } from "../../state/job";
import type { TargetKind } from "../kind";
import { driverWords } from "../table/failure";
import { jobDatabase } from "../table/jobs";
import { DATABASE_WHAT, splitTableText, tableNameOf } from "../table/name";
import { sqliteTable } from "./table";

export interface SqliteTarget extends JobTarget {
  readonly kind: "sqlite";
  /** Absolute. */
  readonly path: string;
  readonly table: string;
}

const PREFIX = "sqlite:";

export const sqliteKind: TargetKind<SqliteTarget> = {
  name: "sqlite",
  claims: (output) => output.startsWith(PREFIX),
  takesTable: true,
  example: "sqlite:PATH",
  parse(words, cwd) {
    const path = words.output.slice(PREFIX.length);
    if (path === "") throw new UsageError("--output sqlite:PATH needs the database file's path");
    const table = tableNameOf(words);
    const target: SqliteTarget = { kind: "sqlite", path: resolve(cwd, path), table };
    return { kind: "target", target, what: DATABASE_WHAT, template: undefined, given: path };
  },
  check: ({ path, table }) =>
    typeof path === "string" && typeof table === "string" ? { kind: "sqlite", path, table } : undefined,
  fromText(text) {
    const parts = text.startsWith(PREFIX) ? splitTableText(text) : undefined;
    return parts && { kind: "sqlite", path: parts.where.slice(PREFIX.length), table: parts.table };
  },
  text: (target) => `${PREFIX}${target.path}#${target.table}`,
  writers: "per-profile",
  accountsAtOnce: 1,
  grows: true,
  describe: (spec) => ({
    words: `table ${spec.target.table} in ${PREFIX}${printable(spec.given)}`,
    json: { kind: "sqlite", database: spec.given, table: spec.target.table },
  }),
  async open(spec, options) {
    const { openTableTarget } = await import("../table/target");
    return openTableTarget(sqliteTable({ path: spec.given, table: spec.target.table }), options);
  },
  reading(target, place) {
    const table = sqliteTable(target);
    return {
      reads: "table",
      open: async () => (await import("../table/reader")).openTableReader(table, place),
    };
  },
  words: (target) => ({ output: `${PREFIX}${target.path}`, table: target.table }),
  jobDatabase: (target, place) =>
    jobDatabase(`${PREFIX}${target.path}`, driverWords, async () =>
      (await import("./jobs")).sqliteJobTable(target.path, `${PREFIX}${printable(target.path)}`, place.sqliteAddon),
    ),
  databaseOf: (target) => ({ kind: "sqlite", path: target.path, table: "" }),
};
