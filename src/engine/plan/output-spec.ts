/**
 * What --output means, decided here and nowhere else: standard output (none, or `-`), a file (a device or a
 * named pipe too; {from} and {to} become the range's days, {profile} the account's name), day files
 * (`{date}` in the name), or a database table (`sqlite:PATH`, a `postgres://` URL): a target of whole days,
 * which its kind reads (targets/registry.ts). Those make a run of whole days (engine/days/export.ts); the
 * rest an ordinary export (engine/run/export.ts).
 */
import { sep } from "node:path";
import { UsageError } from "../../core/errors";
import type { TargetSpec } from "../../targets/kind";
import { kindOfOutput, TARGET_KINDS } from "../../targets/registry";
import { type FolderProblem, folderProblem } from "./output-folder";

/** A target of whole days, read by its kind (targets/registry.ts). */
export type DayTargetSpec = TargetSpec;

export type OutputSpec = { kind: "stdout" } | { kind: "file"; template: string } | DayTargetSpec;

/** The words of the flags that name the output. */
export interface OutputWords {
  output?: string | undefined;
  table?: string | undefined;
  dimensions?: string | undefined;
  incremental?: boolean | undefined;
}

const DATE_PLACEHOLDER = "{date}";

/** No -o, or `-o -`: the data goes to standard output. */
export function isStdoutPath(path: string | undefined): boolean {
  return path === undefined || path === "-";
}

export function hasDatePlaceholder(path: string | undefined): boolean {
  return path?.includes(DATE_PLACEHOLDER) === true;
}

/** Whether -o names a target every account writes at once, each its own profile's rows (a database table). */
export function isDatabaseOutput(output: string | undefined): boolean {
  return kindOfOutput(output)?.writers === "per-profile";
}

/** How many accounts write -o at once: `asked` (--account-concurrency), or fewer where its kind takes fewer. */
export function accountsAtOnce(output: string | undefined, asked: number): number {
  return kindOfOutput(output)?.accountsAtOnce ?? asked;
}

/** A file's name with the range's days in place. */
export function fillPath(template: string, days: { fromDate: string; toDate: string }): string {
  return template.replaceAll("{from}", days.fromDate).replaceAll("{to}", days.toDate);
}

/** --output (and --table) read once; refused here when they cannot go together, or with --incremental. */
export function parseOutputSpec(words: OutputWords, cwd: string): OutputSpec {
  const output = words.output;
  const kind = kindOfOutput(output);
  if (words.table !== undefined && kind?.takesTable !== true) {
    const tables = TARGET_KINDS.filter((k) => k.takesTable).map((k) => k.example);
    throw new UsageError(`--table applies to database targets only (${tables.join(", ")})`);
  }
  if (kind !== undefined) return kind.parse({ ...words, output: output as string }, cwd);
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
