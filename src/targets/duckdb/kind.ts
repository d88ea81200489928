/**
 * `-o duckdb:PATH`: a table in a DuckDB file, kept by a job as the file's absolute path and the table; as
 * `sqlite:` in every way (one writer at a time: DuckDB locks the file to one process).
 */
import { resolve } from "node:path";
import { UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import type { JobTarget } from "../../state/job";
import type { TargetKind } from "../kind";
import { DATABASE_WHAT, splitTableText, tableNameOf } from "../table/name";
import { duckdbTable } from "./table";

export interface DuckdbTarget extends JobTarget {
  readonly kind: "duckdb";
  /** Absolute. */
  readonly path: string;
  readonly table: string;
}

const PREFIX = "duckdb:";

/** Refused before anything is opened, exit 2, where DuckDB's library is not there (the single binary). */
async function driverThere(): Promise<void> {
  await (await import("./driver")).duckdbDriver();
}

export const duckdbKind: TargetKind<DuckdbTarget> = {
  name: "duckdb",
  claims: (output) => output.startsWith(PREFIX),
  takesTable: true,
  example: "duckdb:PATH",
  parse(words, cwd) {
    const path = words.output.slice(PREFIX.length);
    if (path === "") throw new UsageError("--output duckdb:PATH needs the database file's path");
    const table = tableNameOf(words);
    const target: DuckdbTarget = { kind: "duckdb", path: resolve(cwd, path), table };
    return { kind: "target", target, what: DATABASE_WHAT, template: undefined, given: path };
  },
  check: ({ path, table }) =>
    typeof path === "string" && typeof table === "string" ? { kind: "duckdb", path, table } : undefined,
  fromText(text) {
    const parts = text.startsWith(PREFIX) ? splitTableText(text) : undefined;
    return parts && { kind: "duckdb", path: parts.where.slice(PREFIX.length), table: parts.table };
  },
  text: (target) => `${PREFIX}${target.path}#${target.table}`,
  writers: "per-profile",
  // One process opens the file at a time, and one connection writes it: the accounts take turns.
  accountsAtOnce: 1,
  grows: true,
  describe: (spec) => ({
    words: `table ${spec.target.table} in ${PREFIX}${printable(spec.given)}`,
    json: { kind: "duckdb", database: spec.given, table: spec.target.table },
  }),
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
  words: (target) => ({ output: `${PREFIX}${target.path}`, table: target.table }),
};
