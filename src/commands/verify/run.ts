/**
 * `adreport verify JOB`: compares the job's target with its ledger (engine/verify/target.ts), and with the
 * service's daily totals (--against-service); --repair exports the differing days again through the job
 * and verifies once more. One line a differing day on stdout (or -o FILE); exit 7 when any differs.
 */
import { requireApiKey } from "../../config/resolve";
import { dayOfText } from "../../core/calendar";
import { DifferencesError, OutputError, UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import { shellWord } from "../../core/shell-word";
import { isStdoutPath } from "../../engine/plan/output-spec";
import { checkOutputFolder, openOutput, outputError } from "../../engine/run/output";
import { serviceDifferences, serviceTotals } from "../../engine/verify/service";
import {
  type DayDifference,
  differingDays,
  ledgerDays,
  type VerifyWindow,
  verifyTarget,
} from "../../engine/verify/target";
import { writeChunk } from "../../io/write";
import type { JobState } from "../../state/store";
import type { Context } from "../context";
import { pathsOf, stateAt } from "../shared/job-state";
import { type VerifyChoices, verifyChoices } from "./choices";
import type { VerifyOptions } from "./flags";
import { type JobFlagChoices, loadJobSettings } from "./job-settings";
import { repairDays, type Unrepaired } from "./repair";
import { serviceUrl } from "./service-url";

function dayFlag(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (dayOfText(value) === undefined) {
    throw new UsageError(`${name}: ${JSON.stringify(printable(value.slice(0, 40)))} is not a date (YYYY-MM-DD)`);
  }
  return value;
}

/** The verify line as run (the job, the flags that choose what is checked and mended), for a hint. */
function verifyLine(named: string, options: VerifyOptions): string {
  const words = ["adreport", "verify", named];
  if (options.from !== undefined) words.push("--from", shellWord(options.from));
  if (options.to !== undefined) words.push("--to", shellWord(options.to));
  if (options.againstService === true) words.push("--against-service");
  if (options.repair === true) words.push("--repair");
  if (options.baseUrl !== undefined) words.push("--base-url", shellWord(options.baseUrl));
  return words.join(" ");
}

async function differencesOf(
  ctx: Context,
  state: JobState,
  window: VerifyWindow,
  choices: JobFlagChoices,
): Promise<DayDifference[]> {
  const place = { cwd: ctx.cwd, sqliteAddon: ctx.sqliteAddon(), tableUrl: choices.db };
  const differences = await verifyTarget(state, window, place);
  if (choices.baseUrl !== undefined) {
    const settings = await loadJobSettings(ctx, state, choices.baseUrl);
    const totals = await serviceTotals(ctx, settings, requireApiKey(settings), state, window);
    differences.push(...serviceDifferences(state, window, totals));
  }
  return differences.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

/** The result as the format has it: one JSON document, or a line a differing day (nothing when none). */
function resultText(
  format: VerifyChoices["format"],
  state: JobState,
  window: VerifyWindow,
  differences: readonly DayDifference[],
  repair: { repaired: number; unrepaired: readonly Unrepaired[] } | undefined,
): string {
  if (format === "json") {
    const days = ledgerDays(state, window);
    const document = {
      job: state.id,
      from: days[0] ?? null,
      to: window.to,
      days_checked: days.length,
      ...(repair !== undefined
        ? {
            days_repaired: repair.repaired,
            not_repaired: repair.unrepaired.map((u) => ({ day: u.day, reason: u.reason })),
          }
        : {}),
      differences: differences.map((d) => ({ day: d.day, kind: d.kind, changes: d.changes })),
    };
    return `${JSON.stringify(document)}\n`;
  }
  return differences.map((d) => `${d.day}  ${d.changes.map(printable).join("; ")}\n`).join("");
}

/** Stdout, or -o FILE replaced atomically (a device or named pipe written into), as `report` writes. */
async function writeResult(ctx: Context, path: string | undefined, text: string): Promise<void> {
  if (path === undefined || isStdoutPath(path)) {
    if (text !== "") await writeChunk(ctx.io.out, text);
    return;
  }
  const sink = await openOutput(ctx, path);
  try {
    await writeChunk(sink.stream, text);
    await sink.commit();
  } catch (error) {
    const failed = outputError(error, sink);
    await sink.abort();
    throw failed ?? error;
  }
}

export async function runVerify(ctx: Context, job: string | undefined, options: VerifyOptions): Promise<void> {
  const from = dayFlag("--from", options.from);
  const to = dayFlag("--to", options.to);
  if (from !== undefined && to !== undefined && from > to) {
    throw new UsageError(`--from ${from} is after --to ${to}`);
  }
  if (options.baseUrl !== undefined && options.againstService !== true && options.repair !== true) {
    throw new UsageError("--base-url names the service --against-service and --repair ask: give one of them with it");
  }
  const chosen = verifyChoices(options);
  // A result file that cannot be written is refused before a request is sent or a day repaired.
  await checkOutputFolder(ctx, chosen.result);
  // A job kept in a database this folder does not know is found there by --db (sqlite:PATH or a URL).
  const paths = await pathsOf(ctx, job, options.stateFile, chosen.db);
  const named =
    options.stateFile !== undefined ? `--state-file ${shellWord(options.stateFile)}` : (job ?? "").trim().toLowerCase();
  // Its store let go at once (a database's connection): --repair's run takes the job's own.
  let state = await stateAt(ctx, paths, job).finally(() => paths.store.close());
  const window = { from: from ?? "0000-01-01", to: to ?? state.lastDay };
  const choices = { db: chosen.db, stateFile: options.stateFile, quiet: options.quiet, baseUrl: options.baseUrl };
  // The key goes only where the job's profile (or --base-url) says: decided before the first request.
  const ask = () => serviceUrl(ctx, state, choices, verifyLine(named, options));
  const service = options.againstService === true ? await ask() : undefined;
  let differences = await differencesOf(ctx, state, window, { ...choices, baseUrl: service });
  const found = differingDays(differences);
  let repair: { repaired: number; unrepaired: Unrepaired[] } | undefined;
  if (options.repair === true) {
    let unrepaired: Unrepaired[] = [];
    if (differences.length > 0) {
      const asked = async () => service ?? (await ask());
      unrepaired = await repairDays(ctx, { state, paths, named }, choices, asked, differences);
      state = await stateAt(ctx, paths, job).finally(() => paths.store.close());
      differences = await differencesOf(ctx, state, window, { ...choices, baseUrl: service });
    }
    const still = new Set(differingDays(differences));
    repair = { repaired: found.filter((day) => !still.has(day)).length, unrepaired };
  }
  const checked = ledgerDays(state, window).length;
  await writeResult(ctx, chosen.result, resultText(chosen.format, state, window, differences, repair));
  const differ = differingDays(differences).length;
  const repaired = repair !== undefined && found.length > 0 ? `; ${repair.repaired} repaired` : "";
  for (const left of repair?.unrepaired ?? []) ctx.io.err.write(`adreport: ${left.day}: ${printable(left.reason)}\n`);
  const leftDays = (repair?.unrepaired ?? []).reduce((sum, u) => sum + u.days, 0);
  if (leftDays > 0) {
    throw new OutputError(
      `job ${state.id}: ${checked} days checked, ${differ} ${differ === 1 ? "differs" : "differ"}${repaired}, ${leftDays} could not be written`,
      {
        hint: `remove or fix each path named above (a day file is a regular file or nothing), then run: ${verifyLine(named, options)}`,
      },
    );
  }
  if (differences.length === 0) {
    ctx.io.err.write(`adreport: job ${state.id}: ${checked} days checked, every one matches${repaired}\n`);
    return;
  }
  throw new DifferencesError(
    `job ${state.id}: ${checked} days checked, ${differ} ${differ === 1 ? "differs" : "differ"}${repaired}`,
    {
      hint:
        options.repair === true
          ? "the days still differing changed again while they were repaired, or lie outside the job's days"
          : `${verifyLine(named, options)} --repair exports them again`,
    },
  );
}
