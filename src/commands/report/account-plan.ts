/**
 * What a run over several accounts is, decided before any request: the profiles (checked), flags that
 * cannot go with several accounts refused, the request checked, the output checked and its format chosen,
 * and the warnings about the flags printed once.
 */
import { join } from "node:path";
import { accountEnvironments } from "../../config/account-env";
import { UsageError } from "../../core/errors";
import { TimeZone } from "../../core/time-zone";
import type { FanOutPlan } from "../../engine/accounts/fan-out";
import { folderRefusal } from "../../engine/plan/output-folder";
import { chooseOutputFormat } from "../../engine/plan/output-format";
import {
  accountsAtOnce,
  fillPath,
  hasDatePlaceholder,
  isDatabaseOutput,
  outputFolderProblem,
} from "../../engine/plan/output-spec";
import { checkPictureRequest } from "../../engine/plan/picture-options";
import type { ReportPlan } from "../../engine/plan/plan";
import { planRequest } from "../../engine/plan/request";
import { planShape } from "../../engine/plan/shape";
import { checkOutput, isStdoutPath, isStreamOutput } from "../../engine/run/output";
import { checkRecordFolder, openRecordFolder } from "../../engine/run/record";
import { requestWarnings } from "../../engine/run/warnings";
import type { Context } from "../context";
import { selectProfiles } from "../shared/profile-selection";
import { loadSettings, readConfig } from "../shared/settings";
import type { ReportFlags } from "./flags";
import { planReport, tzGiven, zoneOf } from "./plan";
import { formatOptionsOf } from "./plan-common";
import { reportSettingFlags } from "./setting-flags";
import type { SummaryChoice } from "./summary-out";

function refuseMixedFlags(flags: ReportFlags): void {
  const which = flags.allProfiles === true ? "--all-profiles" : "--profiles";
  if (flags.profiles !== undefined && flags.allProfiles === true) {
    throw new UsageError("--profiles and --all-profiles cannot be combined: give one of them");
  }
  if (flags.profile !== undefined) {
    throw new UsageError(`--profile and ${which} cannot be combined`, {
      hint: `${which} uses each profile's own key and settings; drop --profile`,
    });
  }
  if (flags.apiKey !== undefined) {
    throw new UsageError(`--api-key cannot be used with ${which}: a key sees one advertiser account`, {
      hint: "drop --api-key: each account sends its profile's own key (adreport keys list)",
    });
  }
}

/**
 * --fields over several accounts: `profile` may be listed (each account's export is asked for the rest);
 * the shared text output shows it first unless it was placed.
 */
function fieldsOverAccounts(fields: string | undefined): {
  account: string | undefined;
  shared: string[] | undefined;
} {
  if (fields === undefined) return { account: undefined, shared: undefined };
  const listed = fields.split(",").map((name) => name.trim());
  const rest = listed.filter((name) => name !== "profile");
  return {
    account: rest.length === 0 ? undefined : rest.join(","),
    shared: listed.includes("profile") ? listed : ["profile", ...listed],
  };
}

export interface AccountsPlan {
  /** The one reading of the clock every account's plan is made at. */
  now: Date;
  names: string[];
  fanOut: FanOutPlan;
  quiet: boolean;
  summary: SummaryChoice;
  /** The environment an account's settings are resolved in (config/account-env.ts). */
  envFor(profile: string): Record<string, string | undefined>;
  /** Account `profile`'s plan: the base plan's clock and words, the account's own settings (key, zone). */
  planFor(ctx: Context, profile: string, spoolFile: string | undefined): Promise<Readonly<ReportPlan>>;
}

/** The flags of one account's export: its profile, its output (its own, or a spool file), no summary. */
function accountFlags(flags: ReportFlags, profile: string, spoolFile: string | undefined): ReportFlags {
  return {
    ...flags,
    profiles: undefined,
    allProfiles: undefined,
    accountConcurrency: undefined,
    allowPartial: undefined,
    summary: undefined,
    summaryFile: undefined,
    profile,
    fields: fieldsOverAccounts(flags.fields).account,
    quiet: true,
    record: flags.record === undefined ? undefined : join(flags.record, profile),
    ...(spoolFile === undefined
      ? {}
      : { output: spoolFile, format: "json", bom: undefined, delimiter: undefined, spreadsheet: undefined }),
  };
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
    const accountSettings = await loadSettings({ ...ctx, env: envFor(name) }, reportSettingFlags(flags, name));
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
  const settings = await loadSettings({ ...ctx, env: envFor(names[0] as string) }, reportSettingFlags(flags, names[0]));
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
  // Each account records into a folder of its own in DIR (accountFlags): DIR is new or empty, as for one.
  if (flags.record !== undefined) (flags.dryRun === true ? checkRecordFolder : openRecordFolder)(ctx, flags.record);
  const stream = await isStreamOutput(ctx, firstPath);
  const format = chooseOutputFormat(flags, settings, firstPath, ctx.io.outIsTTY, stream);
  planShape({ ...flags, fields: fieldsOverAccounts(flags.fields).account }, request, format.entry.name);
  checkPictureRequest(format.entry.name, request);
  // The plan's warnings come from the flags, the format and the environment (ADREPORT_TZ), every account's
  // alike: said once for the run, here or by the first account's plan, not once an account.
  const warned = new Set<string>();
  const warnOnce = (text: string) => {
    if (warned.has(text)) return;
    warned.add(text);
    ctx.io.err.write(`adreport: warning: ${text}\n`);
  };
  for (const warning of [...requestWarnings(flags, request.request), ...format.warnings]) warnOnce(warning);
  if (flags.allowPartial === true && (perProfile || path === undefined)) {
    ctx.io.err.write(
      `adreport: warning: --allow-partial does nothing here: ${perProfile ? "each account writes its own file" : "standard output is written as accounts end"}\n`,
    );
  }
  // The one table of every account sums their counters: a ratio in its totals row is computed from them.
  const keepCounters = !perProfile && (format.entry.totals === true || format.entry.keepsCounters === true);
  const fanOut: FanOutPlan = {
    names,
    perProfile,
    path,
    concurrency: accountsAtOnce(flags.output, flags.accountConcurrency ?? 2),
    format,
    options: formatOptionsOf(ctx, flags, { settings, format, path, request, now }),
    shaping: { fields: fieldsOverAccounts(flags.fields).shared, epochDates: flags.dateFormat === "epoch" },
    allowPartial: flags.allowPartial === true,
  };
  async function planFor(accountCtx: Context, profile: string, spoolFile: string | undefined) {
    const own = accountFlags(flags, profile, spoolFile);
    const accountSettings = await loadSettings(accountCtx, reportSettingFlags(own));
    return planReport(accountCtx, own, accountSettings, { now, keepCounters, profile, warn: warnOnce });
  }
  return { now, names, fanOut, quiet: flags.quiet === true, summary: flags, envFor, planFor };
}
