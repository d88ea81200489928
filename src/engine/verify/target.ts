/**
 * `adreport verify`: what a job's target holds compared with its ledger (the days its state records). Day
 * files are read back (targets/files/reader.ts: bytes, rows, sums); a table is summed per day. One difference per
 * day that does not match, in day order.
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { runPool } from "../../core/pool";
import type { DayFileReader } from "../../format/day-file";
import { dayFileFormatForFile, dayFileReader } from "../../format/registry";
import { notAFile } from "../../io/output-target";
import { totalDifferences } from "../../state/day-record";
import type { DayFileWrite, JobState } from "../../state/store";
import { listDayFiles } from "../../targets/files/list";
import { readDayFile } from "../../targets/files/reader";
import type { TableReader } from "../../targets/table/reader";

import { readingOfJob } from "./job-target";

export interface DayDifference {
  day: string;
  /** missing: no file; extra: output the ledger does not know; differs: rows, sums or bytes; unreadable: not its format. */
  kind: "missing" | "extra" | "differs" | "unreadable" | "service";
  changes: string[];
  /** The days it stands for when they are more than `day`: a table gone is every day of the job, said once. */
  days?: readonly string[];
}

/** Every day the differences stand for, once each, in order. */
export function differingDays(differences: readonly DayDifference[]): string[] {
  return [...new Set(differences.flatMap((d) => d.days ?? [d.day]))].sort();
}

export interface VerifyWindow {
  from: string;
  to: string;
}

/** The ledger's days inside the window, in order. */
export function ledgerDays(state: JobState, window: VerifyWindow): string[] {
  return Object.keys(state.days)
    .filter((day) => day >= window.from && day <= window.to)
    .sort();
}

export async function verifyTarget(
  state: JobState,
  window: VerifyWindow,
  place: { cwd: string; sqliteAddon: object | undefined; tableUrl: string | undefined },
): Promise<DayDifference[]> {
  // Read as its kind says: day files listed and read back, or a table summed per day.
  const reading = readingOfJob(state, place);
  const differences =
    reading.reads === "day files"
      ? await verifyFiles(state, window, place.cwd, reading.template)
      : await verifyTable(state, window, reading.open);
  return differences.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

async function verifyFiles(
  state: JobState,
  window: VerifyWindow,
  cwd: string,
  template: string,
): Promise<DayDifference[]> {
  const write = state.write ?? writeOfTemplate(template);
  const reader = await dayFileReader(write.format, write);
  const present = await listDayFiles(template, cwd);
  const days = ledgerDays(state, window);
  const found: Array<DayDifference | undefined> = new Array(days.length);
  // Files are read a few at a time: the disk (or its cache) answers while another file is hashed.
  await runPool(days.length, 8, async (i) => {
    found[i] = await checkDayFile(days[i] as string, state, resolve(cwd, template), { write, reader }, present);
  });
  const differences = found.filter((d): d is DayDifference => d !== undefined);
  // A day file the job never wrote, from its first day on (files before it are not the job's).
  const first = days[0] ?? window.from;
  for (const [day, path] of present) {
    // Days after the job's last one are the next run's (after `state reset --from`, its files are still
    // there): checked only when --to asks for them.
    if (day < first || day > window.to || state.days[day] !== undefined) continue;
    const where = day > state.lastDay ? ` after the job's last day (${state.lastDay})` : "";
    differences.push({ day, kind: "extra", changes: [`a file${where} the job did not write: ${path}`] });
  }
  return differences;
}

/** A state kept before the ledger does not say how its files were written: their ending does, as for -o. */
function writeOfTemplate(template: string): DayFileWrite {
  return { format: dayFileFormatForFile(template), delimiter: ",", bom: false, spreadsheet: false };
}

async function checkDayFile(
  day: string,
  state: JobState,
  template: string,
  { write, reader }: { write: DayFileWrite; reader: DayFileReader },
  present: ReadonlyMap<string, string>,
): Promise<DayDifference | undefined> {
  const record = state.days[day];
  const path = present.get(day);
  if (record === undefined) return undefined;
  if (path === undefined) {
    const expected = template.replaceAll("{date}", day);
    // Listed only when a regular file: a named pipe or a device there is said as what it is.
    const what = await stat(expected).then(notAFile, () => undefined);
    if (what !== undefined) return { day, kind: "unreadable", changes: [`not a file: ${expected} is ${what}`] };
    return { day, kind: "missing", changes: [`file missing: ${expected}`] };
  }
  const read = await readDayFile(path, reader, Object.keys(record.sums), record);
  if (record.digest !== undefined && read.digest === record.digest) return undefined;
  if ("unreadable" in read)
    return { day, kind: "unreadable", changes: [`not ${write.format} any more: ${read.unreadable}`] };
  const changes = totalDifferences(record, read);
  if (changes.length > 0) return { day, kind: "differs", changes };
  return record.digest !== undefined
    ? { day, kind: "differs", changes: ["bytes differ, rows and sums the same"] }
    : undefined;
}

async function verifyTable(
  state: JobState,
  window: VerifyWindow,
  open: () => Promise<TableReader>,
): Promise<DayDifference[]> {
  const days = ledgerDays(state, window);
  const first = days[0];
  if (first === undefined) return [];
  const table = await open();
  let found: Map<string, { rows: number; sums: Record<string, number> }>;
  try {
    // A table or database gone is said once, not as every day's rows going to 0.
    const gone = await table.missing();
    if (gone !== undefined) {
      const changes = [`${gone}: every day of the job is gone (${days.length})`];
      return [{ day: first, kind: "missing", changes, days }];
    }
    found = await table.daySums(first, window.to);
  } finally {
    await table.close();
  }
  const differences: DayDifference[] = [];
  const empty: { rows: number; sums: Record<string, number> } = { rows: 0, sums: {} };
  for (const day of days) {
    const record = state.days[day];
    if (record === undefined) continue;
    const held = found.get(day) ?? empty;
    const sums = Object.fromEntries(Object.keys(record.sums).map((m) => [m, held.sums[m] ?? 0]));
    const changes = totalDifferences(record, { rows: held.rows, sums });
    if (changes.length > 0) differences.push({ day, kind: "differs", changes });
  }
  for (const [day, held] of found) {
    if (state.days[day] !== undefined || held.rows === 0) continue;
    differences.push({
      day,
      kind: "extra",
      changes: [`${held.rows} rows in ${table.description} the ledger does not know`],
    });
  }
  return differences;
}
