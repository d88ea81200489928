/**
 * `-o duckdb:PATH`: a table in a DuckDB file, kept by a job as the file's absolute path and the table; as
 * `sqlite:` in every way (one writer at a time: DuckDB locks the file to one process).
 */
import type { TargetKind } from "../kind";
import { type FileDatabaseTarget, fileDatabaseWords } from "../table/file-database";
import { duckdbTable } from "./table";

export type DuckdbTarget = FileDatabaseTarget<"duckdb">;

/** Refused before anything is opened, exit 2, where DuckDB's library is not there (the single binary). */
async function driverThere(): Promise<void> {
  await (await import("./driver")).duckdbDriver();
}

export const duckdbKind: TargetKind<DuckdbTarget> = {
  ...fileDatabaseWords("duckdb"),
  writers: "per-profile",
  // One process opens the file at a time, and one connection writes it: the accounts take turns.
  accountsAtOnce: 1,
  grows: true,
  async open(spec, options) {
    await driverThere();
    const { openTableTarget } = await import("../table/target");
    return openTableTarget(duckdbTable({ path: spec.given, table: spec.target.table }), options);
  },
  reading(target, place) {
    const table = duckdbTable(target);
    return {
      reads: "table",
      async open() {
        await driverThere();
        return (await import("../table/reader")).openTableReader(table, place);
      },
    };
  },
};
