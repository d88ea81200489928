/**
 * What a run over several accounts is, decided before any request: the profiles (checked), flags that
 * cannot go with several accounts refused, the request checked, the output checked and its format chosen,
 * the warnings about the flags said once, and the base every account's plan is derived from
 * (engine/plan/for-account.ts).
 */

import { accountEnvironments } from "../../config/account-env";
import type { Layers } from "../../config/resolve";
import { UsageError } from "../../core/errors";
import { TimeZone } from "../../core/time-zone";
import type { FanOutPlan } from "../../engine/accounts/fan-out";
import { formatOptionsOf } from "../../engine/plan/common";
import { type Account, type BasePlan, planForAccount } from "../../engine/plan/for-account";
import { folderRefusal } from "../../engine/plan/output-folder";
import { chooseOutputFormat } from "../../engine/plan/output-format";
import {
  accountsAtOnce,
  fillPath,
  hasDatePlaceholder,
  isDatabaseOutput,
  isStdoutPath,
  outputFolderProblem,
} from "../../engine/plan/output-spec";
import { checkPictureRequest } from "../../engine/plan/picture-options";
import type { ReportPlan } from "../../engine/plan/plan";
import { reportWordsOf } from "../../engine/plan/report-plan";
import { tzGiven, zoneOf } from "../../engine/plan/report-zone";
import { planRequest } from "../../engine/plan/request";
import { planShape } from "../../engine/plan/shape";
import { requestWarnings } from "../../engine/plan/warnings";
import { checkOutput, isStreamOutput } from "../../engine/run/output";
import { checkRecordFolder, openRecordFolder } from "../../engine/run/record";
import type { Context } from "../context";
import { planPlace } from "../shared/plan-place";
import { selectProfiles } from "../shared/profile-selection";
import { settingFlags } from "../shared/setting-flags";
import { loadSettings, readConfig } from "../shared/settings";
import type { SummaryChoice } from "../shared/summary-out";
import { fieldsOverAccounts, refuseMixedFlags } from "./account-flags";
import type { ReportFlags } from "./flags";

export interface AccountsPlan {
  names: string[];
  fanOut: FanOutPlan;
  /** What every account's plan is derived from: the run's words, its clock, its warnings. */
  base: BasePlan;
  quiet: boolean;
  summary: SummaryChoice;
  /** The environment an account's settings are resolved in (config/account-env.ts). */
  envFor(profile: string): Record<string, string | undefined>;
  /** The settings the flags give account `profile` (spooled: its rows go to a JSON spool file). */
  settingFlagsOf(profile: string, spooled: boolean): Layers["flags"];
  /** Says a warning of an account's plan once for the run: every account's plan may find it. */
  warnOnce(text: string): void;
}

/** One file for every account (no {profile}), named by the range's days ({from}, {to}). */
function namedByDays(output: string | undefined, database: boolean): boolean {
  if (output === undefined || database || output.includes("{profile}")) return false;
  return output.includes("{from}") || output.includes("{to}");
}

/**
 * The one zone of every account's days, for a file they share that is named by those days; refused when
 * the accounts' profiles count days in different zones, whatever the clock says today: a name of one
 * range cannot tell both, and a cron line would work at one hour and not at another.
 */
async function oneZoneOfAccounts(
  ctx: Context,
  flags: ReportFlags,
  names: readonly string[],
  envFor: (profile: string) => Record<string, string | undefined>,
): Promise<TimeZone | undefined> {
  const zones = new Map<string, TimeZone | undefined>();
  for (const name of names) {
    const accountSettings = await loadSettings({ ...ctx, env: envFor(name) }, settingFlags(flags, name));
    zones.set(name, zoneOf(accountSettings));
  }
  const distinct = new Set([...zones.values()].map((zone) => (zone ?? TimeZone.UTC).name));
  if (distinct.size > 1) {
    const listed = [...zones].map(([name, zone]) => `${name}: ${(zone ?? TimeZone.UTC).name}`).join(", ");
    throw new UsageError(
      `--output: {from} and {to} name one file by its days, but these accounts count days in different time zones (${listed})`,
      {
        hint: "add {profile} to the name (a file per account, each named by its days), or give every account one zone: --tz UTC",
      },
    );
  }
  return zones.get(names[0] as string);
}

/** Everything that can be refused before any request: profiles, flags, the request, the output. */
export async function planAccounts(ctx: Context, flags: ReportFlags): Promise<AccountsPlan> {
  refuseMixedFlags(flags);
  const { data } = await readConfig(ctx);
  const names = selectProfiles(Object.keys(data.profiles), flags.profiles, flags.allProfiles === true);
  const { envFor, warnings: envWarnings } = accountEnvironments(ctx.env, data, names);
  for (const warning of envWarnings) ctx.io.err.write(`adreport: warning: ${warning}\n`);
  const settings = await loadSettings({ ...ctx, env: envFor(names[0] as string) }, settingFlags(flags, names[0]));
  // A zone from --tz or ADREPORT_TZ is every account's: refused once here. A profile's own is its account's.
  const { tz } = settings;
  const shared = tz.value !== undefined && (tz.source === "flag" || tz.source === "environment");
  // A database target is shared by every account: each replaces its own rows (its profile) in the table.
  const database = isDatabaseOutput(flags.output);
  const zone = shared
    ? TimeZone.open(tz.value as string, tzGiven(tz.source))
    : namedByDays(flags.output, database)
      ? await oneZoneOfAccounts(ctx, flags, names, envFor)
      : undefined;
  const now = ctx.now();
  const request = planRequest(flags, now, settings["page-size"].value, zone);
  const path =
    flags.output === undefined || isStdoutPath(flags.output) || database
      ? database
        ? flags.output
        : undefined
      : fillPath(flags.output, request);
  const perProfile = database || path?.includes("{profile}") === true;
  if (!perProfile && hasDatePlaceholder(path)) {
    throw new UsageError(
      "--output: {date} with several accounts needs {profile} too: each account writes its own days",
      {
        hint: "for example -o 'exports/{profile}/{date}.csv', or a database target (-o sqlite:PATH), which keeps the profile in a column",
      },
    );
  }
  const firstPath = database ? undefined : perProfile ? path?.replaceAll("{profile}", names[0] ?? "") : path;
  if (!database) {
    for (const target of perProfile ? names.map((name) => path?.replaceAll("{profile}", name)) : [path]) {
      await checkOutput(ctx, target);
      // Every account's file, or the one they share, goes into a folder that must be there: refused once.
      const problem = target === undefined ? undefined : await outputFolderProblem(ctx.cwd, target);
      if (problem !== undefined) throw folderRefusal(problem);
    }
  }
  // Each account records into a folder of its own in DIR (for-account.ts): DIR is new or empty, as for one.
  if (flags.record !== undefined) (flags.dryRun === true ? checkRecordFolder : openRecordFolder)(ctx, flags.record);
  const stream = await isStreamOutput(ctx, firstPath);
  const format = chooseOutputFormat(flags, settings, firstPath, ctx.io.outIsTTY, stream);
  planShape({ ...flags, fields: fieldsOverAccounts(flags.fields).account }, request, format.entry.name);
  checkPictureRequest(format.entry.name, request);
  // The flags' and the format's warnings are every account's: said once for the run, here. One only an
  // account's plan finds (ADREPORT_TZ set aside by a day target) is every account's too: said by the first.
  const warnings = [...requestWarnings(flags, request.request), ...format.warnings];
  const warned = new Set<string>(warnings);
  for (const warning of warnings) ctx.io.err.write(`adreport: warning: ${warning}\n`);
  const warnOnce = (text: string) => {
    if (warned.has(text)) return;
    warned.add(text);
    ctx.io.err.write(`adreport: warning: ${text}\n`);
  };
  if (flags.allowPartial === true && (perProfile || path === undefined)) {
    ctx.io.err.write(
      `adreport: warning: --allow-partial does nothing here: ${perProfile ? "each account writes its own file" : "standard output is written as accounts end"}\n`,
    );
  }
  const fanOut: FanOutPlan = {
    names,
    perProfile,
    path,
    concurrency: accountsAtOnce(flags.output, flags.accountConcurrency ?? 2),
    format,
    options: formatOptionsOf(ctx.io, flags, { settings, format, path, request, now }),
    shaping: { fields: fieldsOverAccounts(flags.fields).shared, epochDates: flags.dateFormat === "epoch" },
    allowPartial: flags.allowPartial === true,
  };
  const base: BasePlan = {
    now,
    words: Object.freeze(reportWordsOf({ ...flags, fields: fieldsOverAccounts(flags.fields).account })),
    warnings,
    merged: perProfile ? undefined : format.entry.name,
  };
  // A spooled account's rows are JSON whatever the output: its format, delimiter and spreadsheet are not asked.
  const settingFlagsOf = (profile: string, spooled: boolean) =>
    settingFlags(spooled ? { ...flags, format: "json", delimiter: undefined, spreadsheet: undefined } : flags, profile);
  return { names, fanOut, base, quiet: flags.quiet === true, summary: flags, envFor, settingFlagsOf, warnOnce };
}

/** Account `profile`'s plan: its own settings (key, zone), derived from the run's base. `ctx`: the account's own. */
export async function planOfAccount(
  ctx: Context,
  run: AccountsPlan,
  profile: string,
  spoolFile: Account["spoolFile"],
): Promise<Readonly<ReportPlan>> {
  const settings = await loadSettings(ctx, run.settingFlagsOf(profile, spoolFile !== undefined));
  return planForAccount(run.base, { profile, settings, spoolFile }, planPlace(ctx, run.base.now, run.warnOnce));
}
