/**
 * The databases whose `adreport_jobs` keep jobs run from this config folder (`state/databases.json`: each
 * as its kind keeps it, never with a password), so `state list`, `state show ID` and `verify ID` find those
 * jobs here as they find jobs in files. A fresh container has none: it names the database (--target).
 */
import { join } from "node:path";
import { readOptionalFile, writePrivateFile } from "../io/private-file";
import { isStoredTarget, type JobTarget } from "./job";

const FILE = "databases.json";

export async function knownDatabases(folder: string): Promise<JobTarget[]> {
  const text = await readOptionalFile(join(folder, FILE)).catch(() => undefined);
  if (text === undefined) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is JobTarget => isStoredTarget(v) && typeof v !== "string") : [];
  } catch {
    return [];
  }
}

/** Adds the database (once); `same` decides what is already known. */
export async function rememberDatabase(
  folder: string,
  database: JobTarget,
  same: (a: JobTarget, b: JobTarget) => boolean,
): Promise<void> {
  const known = await knownDatabases(folder);
  if (known.some((k) => same(k, database))) return;
  await writePrivateFile(join(folder, FILE), `${JSON.stringify([...known, database], null, 2)}\n`);
}
