/**
 * What a run over several accounts is, decided before any request: the profiles (checked), flags that
 * cannot go with several accounts refused, the request checked, the output checked and its format chosen,
 * and the warnings about the flags printed once.
 */
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { accountEnvironments } from "../../config/account-env";
import { OutputError, UsageError } from "../../core/errors";
import { TimeZone } from "../../core/time-zone";
import type { Context } from "../context";
import { lineWriter } from "../shared/line-writer";
import { checkOutput, isStdoutPath } from "../shared/output";
import { selectProfiles } from "../shared/profile-selection";
import { loadSettings, readConfig } from "../shared/settings";
import type { ReportFlags } from "./command";
import { hasDatePlaceholder } from "./day-file-target";
import { chooseOutputFormat, type OutputFormat } from "./output-format";
import { checkPictureRequest } from "./picture-options";
import { openRecordFolder } from "./record";
import { planRequest, type RequestPlan } from "./request";
import { outputPath, reportSettingFlags, tzGiven } from "./run";
import { planShape } from "./shape";
import { requestWarnings } from "./warnings";

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
      hint: "store each account's key in a profile: adreport keys add <profile>",
    });
  }
}

/**
 * --fields over several accounts: `profile` may be listed (each account's export is asked for the rest);
 * the shared text output shows it first unless it was placed.
 */
export function fieldsOverAccounts(fields: string | undefined): {
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

/** A stderr that also remembers every line written, so accounts do not print them again. */
export function recordingErr(ctx: Context, printed: Set<string>): Context {
  const err = lineWriter((line) => {
    printed.add(line);
    ctx.io.err.write(`${line}\n`);
  });
  return { ...ctx, io: { ...ctx.io, err } };
}

export interface AccountsPlan {
  names: string[];
  /** The --output template with {from} and {to} in place ({profile} still in it), or undefined for stdout. */
  path: string | undefined;
  perProfile: boolean;
  /** One SQLite file takes one writer at a time: its accounts run one after the other. */
  oneAtATime: boolean;
  /** The shared target's format (not used with {profile} files: each account picks its own). */
  format: OutputFormat;
  delimiter: string;
  /** The environment an account's settings are resolved in (config/account-env.ts). */
  envFor(profile: string): Record<string, string | undefined>;
  /** The request as planned once for all (its words head an html page). */
  request: RequestPlan;
}

/** A file per account goes into a folder that must be there: refused once, before any request. */
async function checkFolder(ctx: Context, target: string): Promise<void> {
  const folder = dirname(resolve(ctx.cwd, target));
  const problem = await stat(folder).then(
    (found) => (found.isDirectory() ? undefined : "is not a folder"),
    () => "no such folder",
  );
  if (problem !== undefined) throw new OutputError(`cannot write ${target}: ${dirname(target)}: ${problem}`);
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
  const zone = shared ? TimeZone.open(tz.value as string, tzGiven(tz.source)) : undefined;
  const request = planRequest(flags, ctx.now(), settings["page-size"].value, zone);
  // A database target is shared by every account: each replaces its own rows (its profile) in the table.
  const database = flags.output?.startsWith("sqlite:") === true || /^postgres(ql)?:\/\//i.test(flags.output ?? "");
  const path =
    flags.output === undefined || isStdoutPath(flags.output) || database
      ? database
        ? flags.output
        : undefined
      : outputPath(flags.output, request);
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
      if (perProfile && target !== undefined) await checkFolder(ctx, target);
    }
  }
  // Each account records into a folder of its own in DIR (accounts.ts): DIR is new or empty, as for one.
  if (flags.record !== undefined) openRecordFolder(ctx, flags.record);
  const format = chooseOutputFormat(flags, settings, firstPath, ctx.io.outIsTTY);
  planShape({ ...flags, fields: fieldsOverAccounts(flags.fields).account }, request, format.entry.name);
  checkPictureRequest(format.entry.name, request);
  for (const warning of [...requestWarnings(flags, request.request), ...format.warnings])
    ctx.io.err.write(`adreport: warning: ${warning}\n`);
  if (flags.allowPartial === true && (perProfile || path === undefined)) {
    ctx.io.err.write(
      `adreport: warning: --allow-partial does nothing here: ${perProfile ? "each account writes its own file" : "standard output is written as accounts end"}\n`,
    );
  }
  return {
    names,
    path,
    perProfile,
    oneAtATime: flags.output?.startsWith("sqlite:") === true,
    format,
    delimiter: settings.delimiter.value,
    envFor,
    request,
  };
}
