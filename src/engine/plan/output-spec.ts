/**
 * What --output means, decided here and nowhere else: standard output (none, or `-`), a file (a device or a
 * named pipe too; {from} and {to} become the range's days, {profile} the account's name), day files
 * (`{date}` in the name), or a database table (`sqlite:PATH`, a `postgres://` URL). Days and tables make a
 * run of whole days (engine/days/export.ts); the rest an ordinary export (engine/run/export.ts).
 */
import { resolve, sep } from "node:path";
import { databaseIdentity } from "../../core/database-label";
import { UsageError } from "../../core/errors";
import { isStdoutPath } from "../run/output";
import { type FolderProblem, folderProblem } from "./output-folder";

export type DayTargetSpec =
  | { kind: "days"; template: string; what: string; identity: string }
  | { kind: "sqlite"; path: string; table: string; what: string; identity: string }
  | { kind: "postgres"; url: string; table: string; what: string; identity: string };

export type OutputSpec = { kind: "stdout" } | { kind: "file"; template: string } | DayTargetSpec;

/** The words of the flags that name the output. */
export interface OutputWords {
  output?: string | undefined;
  table?: string | undefined;
  dimensions?: string | undefined;
  incremental?: boolean | undefined;
}

const DATE_PLACEHOLDER = "{date}";
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export function hasDatePlaceholder(path: string | undefined): boolean {
  return path?.includes(DATE_PLACEHOLDER) === true;
}

export function isDatabaseOutput(output: string | undefined): boolean {
  return output?.startsWith("sqlite:") === true || /^postgres(ql)?:\/\//i.test(output ?? "");
}

/** A file's name with the range's days in place. */
export function fillPath(template: string, days: { fromDate: string; toDate: string }): string {
  return template.replaceAll("{from}", days.fromDate).replaceAll("{to}", days.toDate);
}

function tableName(words: OutputWords): string {
  const dims = (words.dimensions ?? "")
    .split(",")
    .map((d) => d.trim().toLowerCase())
    .filter((d) => /^[a-z]+$/.test(d));
  const table = words.table ?? `adreport_${dims.join("_")}`;
  if (!TABLE_NAME.test(table)) {
    throw new UsageError(`--table: ${JSON.stringify(table)} is not a table name (letters, digits and _, at most 63)`);
  }
  return table;
}

/** --output (and --table) read once; refused here when they cannot go together, or with --incremental. */
export function parseOutputSpec(words: OutputWords, cwd: string): OutputSpec {
  const output = words.output;
  if (output?.startsWith("sqlite:")) {
    const path = output.slice("sqlite:".length);
    if (path === "") throw new UsageError("--output sqlite:PATH needs the database file's path");
    const table = tableName(words);
    return {
      kind: "sqlite",
      path,
      table,
      what: "a database target",
      identity: `sqlite:${resolve(cwd, path)}#${table}`,
    };
  }
  if (output !== undefined && /^postgres(ql)?:\/\//i.test(output)) {
    const table = tableName(words);
    return {
      kind: "postgres",
      url: output,
      table,
      what: "a database target",
      identity: `${databaseIdentity(output)}#${table}`,
    };
  }
  if (words.table !== undefined) {
    throw new UsageError("--table applies to database targets only (sqlite:PATH, postgres://...)");
  }
  if (output !== undefined && hasDatePlaceholder(output)) {
    if (output.includes("{from}") || output.includes("{to}")) {
      throw new UsageError("--output: {date} names one file per day; it does not go with {from} or {to}");
    }
    return { kind: "days", template: output, what: "{date} in --output", identity: resolve(cwd, output) };
  }
  if (words.incremental === true) {
    throw new UsageError(
      "--incremental needs an output it can rewrite day by day: -o with {date}, or a database target",
      {
        hint: "for example -o 'exports/{date}.csv' or -o sqlite:ads.db; a single file or stdout would count re-exported days twice",
      },
    );
  }
  return isStdoutPath(output) ? { kind: "stdout" } : { kind: "file", template: output as string };
}

/**
 * The folder an output needs before any request: the file's, or for `{date}` in a folder's name
 * (`d/{date}/x.csv`) the folder above it (`d`), as the folders named by days are made day by day.
 */
export async function outputFolderProblem(cwd: string, target: string): Promise<FolderProblem | undefined> {
  const parts = target.split(sep === "/" ? /\// : /[\\/]/);
  const first = parts.findIndex((part) => part.includes(DATE_PLACEHOLDER));
  if (first === -1 || first === parts.length - 1) return folderProblem(cwd, target);
  const above = first === 0 ? "." : first === 1 && parts[0] === "" ? "/" : parts.slice(0, first).join("/");
  return folderProblem(cwd, target, above);
}
