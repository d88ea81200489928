/**
 * `adreport report`'s flags, with the resolved settings and one reading of the clock, made into the plan
 * the engine runs (src/engine/plan.ts). Everything refused before any request is refused here.
 */
import type { ResolvedSettings } from "../../config/resolve";
import { requireApiKey } from "../../config/resolve";
import { formatDateTime } from "../../core/calendar";
import { UsageError } from "../../core/errors";
import { TimeZone } from "../../core/time-zone";
import { planComparedPeriod } from "../../engine/plan/compare";
import { folderProblem, folderRefusal } from "../../engine/plan/output-folder";
import { chooseOutputFormat } from "../../engine/plan/output-format";
import { fillPath, parseOutputSpec } from "../../engine/plan/output-spec";
import { checkPictureRequest } from "../../engine/plan/picture-options";
import { type ExportPlan, freezePlan, type ReportPlan } from "../../engine/plan/plan";
import { planRequest } from "../../engine/plan/request";
import { planShape } from "../../engine/plan/shape";
import { checkOutput, isStreamOutput } from "../../engine/run/output";
import { runPlan } from "../../engine/run/run";
import { requestWarnings } from "../../engine/run/warnings";
import type { Context } from "../context";
import { loadSettings } from "../shared/settings";
import { paceFolder, stateFolder } from "../shared/state-folder";
import type { ReportFlags } from "./flags";
import { commonPlan, formatOptionsOf } from "./plan-common";
import { planDays } from "./plan-days";
import { stderrEvents } from "./render";
import { reportSettingFlags } from "./setting-flags";

/** Where --tz's zone came from, for its messages. */
export function tzGiven(source: string): string {
  return source === "flag" ? "--tz" : source === "environment" ? "ADREPORT_TZ" : `the tz setting (${source})`;
}

/** The zone of a report's days: --tz, ADREPORT_TZ or the tz setting; undefined for UTC. */
export function zoneOf(settings: ResolvedSettings): TimeZone | undefined {
  const { tz } = settings;
  return tz.value === undefined ? undefined : TimeZone.open(tz.value, tzGiven(tz.source));
}

export interface PlanChoices {
  /** The clock's one reading every date of the plan comes from (a run over accounts shares it). */
  now: Date;
  /** Rows keep the counters of their ratios, for an output that sums them later (accounts.ts). */
  keepCounters?: boolean;
  /** With {profile} in --output: this account's name goes there. */
  profile?: string;
  warn(text: string): void;
}

export async function planReport(
  ctx: Context,
  flags: ReportFlags,
  settings: ResolvedSettings,
  choices: PlanChoices,
): Promise<Readonly<ReportPlan>> {
  const { now, warn } = choices;
  if (flags.incremental !== true) {
    for (const [flag, value] of [
      ["--lookback", flags.lookback],
      ["--start", flags.start],
      ["--state-file", flags.stateFile],
    ] as const) {
      if (value !== undefined) throw new UsageError(`${flag} applies to --incremental runs only`);
    }
  }
  const named = choices.profile === undefined ? flags.output : flags.output?.replaceAll("{profile}", choices.profile);
  const output = parseOutputSpec({ ...flags, output: named }, ctx.cwd);
  if (output.kind !== "stdout" && output.kind !== "file") {
    const place = {
      cwd: ctx.cwd,
      now,
      stateFolder: stateFolder(ctx),
      paceFolder: paceFolder(ctx),
      describeOnly: flags.dryRun === true,
    };
    return freezePlan(await planDays(place, flags, settings, output, warn));
  }
  const pageSize = settings["page-size"].value;
  const request = planRequest(flags, now, pageSize, zoneOf(settings));
  const compare = flags.compare && {
    mode: flags.compare,
    period: planComparedPeriod(request, flags.compare, flags.split),
  };
  const path = output.kind === "file" ? fillPath(output.template, request) : undefined;
  await checkOutput(ctx, path);
  const problem = path === undefined ? undefined : await folderProblem(ctx.cwd, path);
  if (problem !== undefined && flags.dryRun !== true) throw folderRefusal(problem);
  const format = chooseOutputFormat(flags, settings, path, ctx.io.outIsTTY, await isStreamOutput(ctx, path));
  const shape = planShape(flags, request, format.entry.name, choices.keepCounters);
  checkPictureRequest(format.entry.name, request);
  const apiKey = requireApiKey(settings);
  for (const warning of [...requestWarnings(flags, request.request), ...format.warnings]) warn(warning);
  const plan: ExportPlan = {
    kind: "export",
    ...commonPlan(flags, { now, settings, apiKey, request, paceFolder: paceFolder(ctx) }),
    output,
    path,
    write: {
      format,
      options: {
        ...formatOptionsOf(ctx, flags, { settings, format, path, request, now }),
        // The instants the service counts (a bare date's `to` is its last second), as A1 writes them.
        range: { from: formatDateTime(request.range.from), to: formatDateTime(request.range.to) },
      },
    },
    shape,
    compare: compare || undefined,
    record: flags.record,
    folder: problem,
  };
  return freezePlan(plan);
}

/** `adreport report` for one account: its settings, the plan made once, the engine's run, its events shown. */
export async function runReport(ctx: Context, flags: ReportFlags): Promise<void> {
  if (flags.apiKey !== undefined) {
    ctx.io.err.write(
      "adreport: warning: --api-key is visible to other users of this machine (ps); prefer ADREPORT_API_KEY or a profile\n",
    );
  }
  const settings = await loadSettings(ctx, reportSettingFlags(flags));
  const events = stderrEvents(ctx, flags, flags.quiet !== true);
  const plan = await planReport(ctx, flags, settings, { now: ctx.now(), warn: events.warning });
  if (flags.dryRun === true) return (await import("./dry-run")).showPlan(ctx, flags, plan);
  await runPlan(ctx, plan, events);
}
