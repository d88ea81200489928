/**
 * The kinds of output target, one line each (as dlt registers its destinations): a new kind is a folder in
 * targets/ and a line here. Their order is the order -o is recognised in: a table's scheme (`sqlite:`,
 * `duckdb:`, `postgres://`) before `{date}`, which a database's name may hold.
 */
import type { JobTarget } from "../state/job";
import { duckdbKind } from "./duckdb/kind";
import { filesKind } from "./files/kind";
import type { TargetKind } from "./kind";
import { postgresKind } from "./postgres/kind";
import { sqliteKind } from "./sqlite/kind";

export const TARGET_KINDS: readonly TargetKind[] = [sqliteKind, duckdbKind, postgresKind, filesKind];

/** The kind -o names; undefined for a file, a device or stdout (an ordinary export). */
export function kindOfOutput(output: string | undefined): TargetKind | undefined {
  return output === undefined ? undefined : TARGET_KINDS.find((kind) => kind.claims(output));
}

/** The kind of a target a plan or a job holds (checked when read: targets/registry.ts readTarget). */
export function kindOf(target: JobTarget): TargetKind {
  const kind = TARGET_KINDS.find((k) => k.name === target.kind);
  if (kind === undefined) throw new Error(`no target kind ${target.kind}`);
  return kind;
}

/**
 * A state's target read, the one place where an earlier adreport's text (`sqlite:/abs/ads.db#t`,
 * `postgres://host/db#t`, a template's path) is read back; undefined when no kind writes it.
 */
export function readTarget(value: unknown): JobTarget | undefined {
  if (typeof value === "string") {
    for (const kind of TARGET_KINDS) {
      const target = kind.fromText(value);
      if (target !== undefined) return target;
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const target = value as JobTarget;
  return TARGET_KINDS.find((k) => k.name === target.kind)?.check(target);
}

/** The target in its kind's one text: what a job's id hashes, what `state list` shows. */
export function targetText(target: JobTarget): string {
  return kindOf(target).text(target);
}

export function sameTarget(a: JobTarget, b: JobTarget): boolean {
  return a.kind === b.kind && targetText(a) === targetText(b);
}
