/**
 * A run of whole days planned: {date} files or a database table, --incremental or not. What these runs
 * refuse before any request is refused here, in the order the user meets it.
 */
import type { ResolvedSettings } from "../../config/resolve";
import { requireApiKey } from "../../config/resolve";
import { dayOfInstant, dayText } from "../../core/calendar";
import { isDerivedMetric } from "../../core/derived-metrics";
import { UsageError } from "../../core/errors";
import { TimeZone } from "../../core/time-zone";
import { commonPlan, type PlanPlace, warningsOf } from "./common";
import { parseLookbackChoice } from "./incremental";
import { folderRefusal } from "./output-folder";
import { chooseOutputFormat, dayFileFormatsInWords, isPicture } from "./output-format";
import type { DayTargetSpec } from "./output-spec";
import type { DayPlan, FormatPlan } from "./plan";
import { planRequest } from "./request";
import { requestWarnings } from "./warnings";
import type { ReportWords } from "./words";

/** The words a run of whole days reads. */
export type DayWords = Omit<ReportWords, "output" | "table" | "record">;

const WHOLE_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Whole UTC days, as the service counts them, are what these targets keep and compare run to run: the flags
 * that re-shape rows (ratios, zones, comparisons, ordering, filling, columns) do not apply to them.
 */
function refuseShaping(flags: DayWords, choice: DayTargetSpec): void {
  const given = [
    flags.tz !== undefined && TimeZone.open(flags.tz) !== TimeZone.UTC && "--tz",
    flags.compare !== undefined && "--compare",
    flags.sort !== undefined && "--sort",
    flags.top !== undefined && "--top",
    flags.fill === true && "--fill",
    flags.fields !== undefined && "--fields",
    flags.dateFormat !== undefined && "--date-format",
    flags.metrics?.split(",").some((m) => isDerivedMetric(m.trim())) && "ratios in --metrics",
    isPicture(flags.format) && `--format ${flags.format}`,
  ].filter((word): word is string => typeof word === "string");
  if (given.length === 0) return;
  throw new UsageError(
    `${given.join(", ")} cannot be used with ${choice.what}: it keeps the service's UTC days and counters`,
    {
      hint: "export the counters (views, spending, clicks, conversions) and compute ratios, zones and rankings from them downstream",
    },
  );
}

/** A file of a day not yet over (or to come) would look complete: empty, or holding part of the day. */
function refuseIncompleteDays(toDate: string, now: Date): void {
  const yesterday = dayText(dayOfInstant(now) - 1);
  if (toDate <= yesterday) return;
  throw new UsageError(
    `{date} in --output writes complete days: --to ${toDate} is after the last complete UTC day (${yesterday})`,
    { hint: "end at --to yesterday (the default); a database target takes today's rows and replaces them later" },
  );
}

/** The format of each day's file, chosen by its ending as for one file; the picture formats refused. */
function dayFileFormat(
  flags: DayWords,
  settings: ResolvedSettings,
  template: string,
  warn: (text: string) => void,
): FormatPlan {
  const format = chooseOutputFormat(flags, settings, template, false);
  // A picture chosen by the file's ending (x.html) or the format setting, as -f html is refused above.
  if (format.entry.picture === true) {
    throw new UsageError(
      `--format ${format.entry.name} cannot be used with {date} in --output: it keeps the service's UTC days and counters`,
      { hint: `write ${dayFileFormatsInWords()} day files (-o 'exports/{date}.csv')` },
    );
  }
  for (const warning of format.warnings) warn(warning);
  const options = {
    delimiter: settings.delimiter.value,
    bom: flags.bom === true,
    spreadsheet: format.spreadsheet,
    color: false,
  };
  return { format, options };
}

/** A dry run's plan (--dry-run) holds a missing folder for the dry run to show, then refuse. */
export async function planDays(
  place: PlanPlace,
  flags: DayWords,
  settings: ResolvedSettings,
  choice: DayTargetSpec,
): Promise<DayPlan> {
  const { now } = place;
  const warnings = warningsOf(place);
  const warn = warnings.warn;
  refuseShaping(flags, choice);
  const zone = settings.tz.value;
  // --tz is refused above. ADREPORT_TZ is a zone chosen for this run, dropped: said on each run. A profile's
  // or the config file's tz is a standing choice for the reports it shapes; these targets keep UTC days
  // whatever it says (the docs, and --dry-run's range line), so a cron run of such a profile stays quiet.
  if (zone !== undefined && zone !== TimeZone.UTC.name && settings.tz.source === "environment") {
    warn(
      `the time zone ${JSON.stringify(zone)} (environment) is not used: ${choice.what} keeps the service's UTC days`,
    );
  }
  const pageSize = settings["page-size"].value;
  const incremental = flags.incremental === true;
  if (incremental && (flags.from !== undefined || flags.to !== undefined)) {
    throw new UsageError("--incremental computes the range itself: drop --from and --to", {
      hint: "the first run starts at --start; later runs continue from the last day exported",
    });
  }
  const request = planRequest(flags, now, pageSize);
  if (!request.request.dimensions.includes("date")) {
    throw new UsageError(`${choice.what} needs date among the dimensions (--dims ...,date): it writes whole days`, {
      hint: `for example --dims ${[...request.request.dimensions, "date"].join(",")}`,
    });
  }
  for (const warning of requestWarnings(flags, request.request)) warn(warning);
  const apiKey = requireApiKey(settings);
  if (!incremental && (!WHOLE_DAY.test(request.request.from) || !WHOLE_DAY.test(request.request.to))) {
    throw new UsageError(`${choice.what} writes whole days: --from and --to must be days (YYYY-MM-DD, -Nd, yesterday)`);
  }
  const template = choice.template;
  if (!incremental && template !== undefined) refuseIncompleteDays(request.toDate, now);
  const problem = template === undefined ? undefined : await place.look.folder(template);
  if (problem !== undefined && flags.dryRun !== true) throw folderRefusal(problem);
  const write = template === undefined ? undefined : dayFileFormat(flags, settings, template, warn);
  return {
    kind: "days",
    ...commonPlan(flags, { now, settings, apiKey, request, paceFolder: place.paceFolder }),
    folder: problem,
    output: choice,
    write,
    granularity: request.request.granularity?.toLowerCase() ?? "day",
    stateFolder: place.stateFolder,
    incremental: incremental
      ? {
          ...lookbackOf(flags.lookback ?? "3d", request.request.granularity ?? "day"),
          start: flags.start,
          stateFile: flags.stateFile,
          stateFolder: place.stateFolder,
        }
      : undefined,
    warnings: warnings.list,
  };
}

function lookbackOf(text: string, granularity: string): { lookbackDays: number; auto?: boolean } {
  const { days, auto } = parseLookbackChoice(text, granularity);
  return auto ? { lookbackDays: days, auto } : { lookbackDays: days };
}
