/** `-o sqlite:PATH`: a table in a SQLite file, kept by a job as the file's absolute path and the table. */
import { printable } from "../../core/printable";
import type { TargetKind } from "../kind";
import { driverWords } from "../table/failure";
import { type FileDatabaseTarget, fileDatabaseWords } from "../table/file-database";
import { jobDatabase } from "../table/jobs";
import { sqliteTable } from "./table";

export type SqliteTarget = FileDatabaseTarget<"sqlite">;

const PREFIX = "sqlite:";

export const sqliteKind: TargetKind<SqliteTarget> = {
  ...fileDatabaseWords("sqlite"),
  writers: "per-profile",
  accountsAtOnce: 1,
  grows: true,
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
  jobDatabase: (target, place) =>
    jobDatabase(`${PREFIX}${target.path}`, driverWords, async () =>
      (await import("./jobs")).sqliteJobTable(target.path, `${PREFIX}${printable(target.path)}`, place.sqliteAddon),
    ),
  databaseOf: (target) => ({ kind: "sqlite", path: target.path, table: "" }),
};
