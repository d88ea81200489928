/**
 * What a run over several accounts is, decided before any request: the profiles (checked), flags that
 * cannot go with several accounts refused, the request checked, the output checked and its format chosen,
 * and the warnings about the flags printed once.
 */
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { OutputError, UsageError } from "../../core/errors";
import { TimeZone } from "../../core/time-zone";
import type { FormatOptions } from "../../format/formatter";
import type { Context } from "../context";
import { lineWriter } from "../shared/line-writer";
import { checkOutput, isStdoutPath } from "../shared/output";
import { selectProfiles } from "../shared/profile-selection";
import { loadSettings, readConfig } from "../shared/settings";
import type { ReportFlags } from "./command";
import { chooseOutputFormat, type OutputFormat } from "./output-format";
import { checkPictureRequest, pictureOptions } from "./picture-options";
import { planRequest } from "./request";
import { outputPath, tzGiven } from "./run";
import { planShape } from "./shape";
import { requestWarnings } from "./warnings";

/** Settings are resolved per account; a key or profile in the environment belongs to one account only. */
const ONE_ACCOUNT_ENV = ["ADREPORT_API_KEY", "ADREPORT_PROFILE"] as const;

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
  /** The shared target's format (not used with {profile} files: each account picks its own). */
  format: OutputFormat;
  delimiter: string;
  env: Record<string, string | undefined>;
  /** --fields, checked against the report's columns (the shared output's columns after `profile`). */
  fields: readonly string[] | undefined;
  /** The html header's query and the chart's width, for the shared output. */
  picture: Pick<FormatOptions, "query" | "exportedAt" | "width">;
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
  const env: Record<string, string | undefined> = { ...ctx.env };
  if (env.ADREPORT_API_KEY) {
    ctx.io.err.write("adreport: warning: ADREPORT_API_KEY is ignored: each account uses its profile's key\n");
  }
  for (const name of ONE_ACCOUNT_ENV) delete env[name];
  const settings = await loadSettings(
    { ...ctx, env },
    {
      "base-url": flags.baseUrl,
      profile: names[0],
      format: flags.format,
      "page-size": flags.pageSize,
      concurrency: flags.concurrency,
      timeout: flags.timeout,
      retries: flags.retries,
      "max-time": flags.maxTime,
      delimiter: flags.delimiter,
      spreadsheet: flags.spreadsheet,
      tz: flags.tz,
    },
  );
  // A zone every account shares (--tz, ADREPORT_TZ) names the days of {from} and {to}, as for one account;
  // a profile's own zone names only its own days.
  const { tz } = settings;
  const zone =
    tz.value !== undefined && (tz.source === "flag" || tz.source === "environment")
      ? TimeZone.open(tz.value, tzGiven(tz.source))
      : undefined;
  const request = planRequest(flags, ctx.now(), settings["page-size"].value, zone);
  const path = flags.output === undefined || isStdoutPath(flags.output) ? undefined : outputPath(flags.output, request);
  const perProfile = path?.includes("{profile}") === true;
  const firstPath = perProfile ? path?.replaceAll("{profile}", names[0] ?? "") : path;
  for (const target of perProfile ? names.map((name) => path?.replaceAll("{profile}", name)) : [path]) {
    await checkOutput(ctx, target);
    if (perProfile && target !== undefined) await checkFolder(ctx, target);
  }
  const format = chooseOutputFormat(flags, settings, firstPath, ctx.io.outIsTTY);
  for (const warning of [...requestWarnings(flags, request.request), ...format.warnings])
    ctx.io.err.write(`adreport: warning: ${warning}\n`);
  if (flags.allowPartial === true && (perProfile || path === undefined)) {
    ctx.io.err.write(
      `adreport: warning: --allow-partial does nothing here: ${perProfile ? "each account writes its own file" : "standard output is written as accounts end"}\n`,
    );
  }
  const { fields } = planShape(flags, request, format.entry.name);
  if (!perProfile) checkPictureRequest(format.entry.name, request);
  const picture = pictureOptions(ctx, request, flags.compare);
  return { names, path, perProfile, format, delimiter: settings.delimiter.value, env, fields, picture };
}
