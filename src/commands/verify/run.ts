/**
 * `adreport verify JOB`: compares the job's target with its ledger (engine/verify-target.ts), and with the
 * service's daily totals (--against-service); --repair exports the differing days again through the job
 * and verifies once more. One line a differing day on stdout; exit 7 when any differs.
 */
import { requireApiKey } from "../../config/resolve";
import { dayOfText } from "../../core/calendar";
import { DifferencesError, UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import { serviceDifferences, serviceTotals } from "../../engine/verify-service";
import { type DayDifference, ledgerDays, type VerifyWindow, verifyTarget } from "../../engine/verify-target";
import { writeChunk } from "../../io/write";
import type { JobState } from "../../state/store";
import type { Context } from "../context";
import { reportSettingFlags } from "../report/setting-flags";
import { pathsOf, stateAt } from "../shared/job-state";
import { loadSettings } from "../shared/settings";
import type { VerifyOptions } from "./flags";
import { jobFlags } from "./job-flags";
import { repairDays } from "./repair";

function dayFlag(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (dayOfText(value) === undefined) {
    throw new UsageError(`${name}: ${JSON.stringify(printable(value.slice(0, 40)))} is not a date (YYYY-MM-DD)`);
  }
  return value;
}

async function differencesOf(
  ctx: Context,
  state: JobState,
  window: VerifyWindow,
  options: VerifyOptions,
): Promise<DayDifference[]> {
  const place = { cwd: ctx.cwd, sqliteAddon: ctx.sqliteAddon(), tableUrl: options.output };
  const differences = await verifyTarget(state, window, place);
  if (options.againstService === true) {
    const settings = await loadSettings(ctx, reportSettingFlags(jobFlags(state, options)));
    const totals = await serviceTotals(ctx, settings, requireApiKey(settings), state, window);
    differences.push(...serviceDifferences(state, window, totals));
  }
  return differences.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

export async function runVerify(ctx: Context, job: string | undefined, options: VerifyOptions): Promise<void> {
  const from = dayFlag("--from", options.from);
  const to = dayFlag("--to", options.to);
  if (from !== undefined && to !== undefined && from > to) {
    throw new UsageError(`--from ${from} is after --to ${to}`);
  }
  const paths = await pathsOf(ctx, job, options.stateFile);
  let state = await stateAt(ctx, paths, job);
  const window = { from: from ?? "0000-01-01", to: to ?? state.lastDay };
  let differences = await differencesOf(ctx, state, window, options);
  const daysOf = (list: readonly DayDifference[]) => new Set(list.map((d) => d.day)).size;
  const found = daysOf(differences);
  if (options.repair === true && differences.length > 0) {
    await repairDays(ctx, state, options, differences);
    state = await stateAt(ctx, paths, job);
    differences = await differencesOf(ctx, state, window, options);
  }
  const checked = ledgerDays(state, window).length;
  if (options.format === "json") {
    const document = {
      job: state.id,
      from: ledgerDays(state, window)[0] ?? null,
      to: window.to,
      days_checked: checked,
      ...(options.repair === true ? { days_repaired: found - daysOf(differences) } : {}),
      differences: differences.map((d) => ({ day: d.day, kind: d.kind, changes: d.changes })),
    };
    await writeChunk(ctx.io.out, `${JSON.stringify(document)}\n`);
  } else if (differences.length > 0) {
    const lines = differences.map((d) => `${d.day}  ${d.changes.map(printable).join("; ")}\n`);
    await writeChunk(ctx.io.out, lines.join(""));
  }
  const repaired = options.repair === true && found > 0 ? `; ${found - daysOf(differences)} repaired` : "";
  if (differences.length === 0) {
    ctx.io.err.write(`adreport: job ${state.id}: ${checked} days checked, every one matches${repaired}\n`);
    return;
  }
  throw new DifferencesError(`job ${state.id}: ${checked} days checked, ${daysOf(differences)} differ${repaired}`, {
    hint:
      options.repair === true
        ? "the days still differing changed again while they were repaired, or lie outside the job's days"
        : `adreport verify ${state.id} --repair exports them again`,
  });
}
