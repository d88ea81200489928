/** `adreport state list | show | reset`. */

import { existsSync } from "node:fs";
import { BusyError } from "../../core/busy-error";
import { dayText } from "../../core/calendar";
import { AdreportError, UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import { jobStore } from "../../engine/days/job-stores";
import { dayNumber } from "../../engine/plan/incremental";
import type { JobStatus } from "../../engine/status/document";
import { readJob } from "../../engine/status/read";
import { statusSummary } from "../../engine/status/render";
import { statusDocument } from "../../engine/status/status";
import { writeChunk } from "../../io/write";
import { targetText } from "../../targets/registry";
import type { Context } from "../context";
import { type KeptPaths, pathsOf, stateAt, storesToSearch } from "../shared/job-state";
import { recordFormat, recordsText, snakeCaseKeys } from "../shared/records";
import { stateFolder } from "../shared/state-folder";
import type { StateListOptions, StateResetOptions, StateShowOptions } from "./flags";

export async function runStateList(ctx: Context, options: StateListOptions): Promise<void> {
  const format = recordFormat(ctx, options);
  const folder = stateFolder(ctx);
  const { stores, named } = await storesToSearch(ctx, options.target);
  const records = [];
  try {
    const seen = new Set<string>();
    for (const store of stores) {
      const warn = (error: Error) => ctx.io.err.write(`adreport: warning: ${printable(error.message)}\n`);
      // A database that cannot be reached now hides none of the others' jobs (this host's copies stay listed).
      const states = await store.list(folder, ctx.user, warn).catch((error: unknown) => {
        if (store === named || store === jobStore() || !(error instanceof AdreportError)) throw error;
        warn(error);
        return [];
      });
      for (const state of states) {
        // A job taken over by its database is there once; its old file is renamed.
        if (seen.has(state.id)) continue;
        seen.add(state.id);
        const run = await store.readLastRun(store.pathsInFolder(folder, state.id));
        records.push({
          job: state.id,
          last_day: state.lastDay,
          last_run: run?.at ?? null,
          outcome: run?.outcome ?? null,
          output: targetText(state.job.target),
          profile: state.job.profile,
        });
      }
    }
  } finally {
    for (const store of stores) await store.close();
  }
  records.sort((a, b) => (a.job < b.job ? -1 : a.job > b.job ? 1 : 0));
  if (format === "human" && records.length === 0) {
    const where = options.target === undefined ? " (jobs kept in a database: add --target DATABASE)" : "";
    ctx.io.err.write(`adreport: no incremental jobs yet${where} (adreport report --incremental ... starts one)\n`);
    return;
  }
  if (format !== "human") {
    const text = recordsText(format, records);
    if (text !== "") await writeChunk(ctx.io.out, text);
    return;
  }
  const lines = [["JOB", "LAST DAY", "LAST RUN", "OUTCOME", "OUTPUT"].join("\t")];
  for (const record of records) {
    const outcome = record.outcome === null ? "-" : printable(record.outcome);
    const lastRun = record.last_run === null ? "-" : printable(String(record.last_run));
    lines.push([record.job, record.last_day, lastRun, outcome, printable(record.output)].join("\t"));
  }
  await writeChunk(ctx.io.out, `${lines.join("\n")}\n`);
}

export async function runStateShow(ctx: Context, job: string | undefined, options: StateShowOptions): Promise<void> {
  if (options.ledger === true && options.format !== undefined) {
    throw new UsageError("--ledger prints the whole state as one JSON document: give it without --format");
  }
  const paths = await pathsOf(ctx, job, options.stateFile, options.target);
  try {
    const state = await stateAt(ctx, paths, job);
    // Scripts written against earlier versions read the whole document from a pipe: it stays theirs there.
    if (options.ledger === true || (options.format === undefined && !ctx.io.outIsTTY)) {
      const lastRun = (await paths.store.readLastRun(paths)) ?? null;
      // The state file's own names are camelCase; printed, they follow the records' snake_case (state list's too).
      await writeChunk(ctx.io.out, `${JSON.stringify(snakeCaseKeys({ ...state, lastRun }), null, 2)}\n`);
      return;
    }
    const read = await readJob(paths, ctx.user, paths.store);
    if (read === undefined) throw new UsageError(`no state in ${paths.state}`);
    // The summary only: alerts by exit code are `adreport status`'s.
    const document = statusDocument([read], ctx.now(), () => undefined, []);
    const text =
      options.format === "json"
        ? `${JSON.stringify(document, null, 2)}\n`
        : statusSummary(document.jobs[0] as JobStatus);
    await writeChunk(ctx.io.out, text);
  } finally {
    await paths.store.close();
  }
}

export async function runStateReset(ctx: Context, job: string | undefined, options: StateResetOptions): Promise<void> {
  const from = options.from === undefined ? undefined : dayNumber(options.from);
  if (options.from !== undefined && from === undefined) {
    throw new UsageError(`--from: ${JSON.stringify(printable(options.from.slice(0, 40)))} is not a date (YYYY-MM-DD)`);
  }
  const paths = await pathsOf(ctx, job, options.stateFile, options.target);
  try {
    await resetAt(ctx, paths, job, from);
  } finally {
    await paths.store.close();
  }
}

async function resetAt(ctx: Context, paths: KeptPaths, job: string | undefined, from: number | undefined) {
  const { store } = paths;
  // A state that cannot be read can still be forgotten (the hint of the refusal says so); not moved back.
  const state = await stateAt(ctx, paths, job).catch((error: unknown) => {
    const kept = store.name === "database" || existsSync(paths.state);
    if (from !== undefined || !(error instanceof UsageError) || !kept) throw error;
    return undefined;
  });
  const name = state?.id ?? printable(job ?? paths.state);
  const lock = await store.lock(paths);
  if (!lock.ok) {
    throw new BusyError(`a run of job ${name} is under way (pid ${lock.holder}); its state was left as it was`);
  }
  try {
    if (from === undefined || state === undefined) {
      await store.forget(paths);
      ctx.io.err.write(`adreport: job ${name} forgotten: its next run starts at --start\n`);
      return;
    }
    const lastDay = dayText(from - 1);
    const days = Object.fromEntries(Object.entries(state.days).filter(([day]) => day < dayText(from)));
    const before = state.lastDay < lastDay ? state.lastDay : lastDay;
    await store.write(paths, { ...state, lastDay: before, days });
    ctx.io.err.write(
      `adreport: job ${state.id}: the next run exports again from ${dayText((dayNumber(before) as number) + 1)}\n`,
    );
  } finally {
    await lock.release();
  }
}
