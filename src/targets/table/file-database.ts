/**
 * What a table kind whose database is one file (`sqlite:PATH`, `duckdb:PATH`) says of its target, the same
 * for each: `-o KIND:PATH --table NAME` parsed (the path made absolute), its job data checked, its one
 * canonical text (`KIND:/abs/path#table`, what the job id hashes), its dry-run words.
 */
import { resolve } from "node:path";
import { UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import type { JobTarget } from "../../state/job";
import type { TargetKind } from "../kind";
import { DATABASE_WHAT, splitTableText, tableNameOf } from "./name";

export interface FileDatabaseTarget<K extends string> extends JobTarget {
  readonly kind: K;
  /** Absolute. */
  readonly path: string;
  readonly table: string;
}

type FileDatabaseWords<K extends string> = Pick<
  TargetKind<FileDatabaseTarget<K>>,
  "name" | "claims" | "takesTable" | "example" | "parse" | "check" | "fromText" | "text" | "describe" | "words"
>;

export function fileDatabaseWords<K extends string>(kind: K): FileDatabaseWords<K> {
  const prefix = `${kind}:`;
  return {
    name: kind,
    claims: (output) => output.startsWith(prefix),
    takesTable: true,
    example: `${prefix}PATH`,
    parse(words, cwd) {
      const path = words.output.slice(prefix.length);
      if (path === "") throw new UsageError(`--output ${prefix}PATH needs the database file's path`);
      const table = tableNameOf(words);
      const target: FileDatabaseTarget<K> = { kind, path: resolve(cwd, path), table };
      return { kind: "target", target, what: DATABASE_WHAT, template: undefined, given: path };
    },
    check: ({ path, table }) =>
      typeof path === "string" && typeof table === "string" ? { kind, path, table } : undefined,
    fromText(text) {
      const parts = text.startsWith(prefix) ? splitTableText(text) : undefined;
      return parts && { kind, path: parts.where.slice(prefix.length), table: parts.table };
    },
    text: (target) => `${prefix}${target.path}#${target.table}`,
    describe: (spec) => ({
      words: `table ${spec.target.table} in ${prefix}${printable(spec.given)}`,
      json: { kind, database: spec.given, table: spec.target.table },
    }),
    words: (target) => ({ output: `${prefix}${target.path}`, table: target.table }),
  };
}
