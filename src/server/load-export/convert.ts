/**
 * `serve load --from-export`: an NDJSON export of `adreport report` (one API row a line) with `date` and
 * `campaign` or `ad` among its dimensions, turned into the load format (docs/service.md §8), one load line
 * per export line (blank for blank), so the loader's line numbers are the export's.
 *
 * Each row becomes one hour of one ad: its bucket's first hour. That is exact for hourly buckets and keeps
 * every daily total (a day's data lands at 00:00). Weekly and monthly buckets are refused: their dates are
 * all Mondays or all 1sts, and loaded as days they would be wrong. Only the dates tell the granularity
 * (an NDJSON export has no `meta`); where day and week or month cannot be told apart, the caller says.
 * A campaign row becomes an ad of the same id and name in that campaign; an ad row's campaign is named
 * `campaign <id>` (an ad export does not carry campaign names). Clicks are loaded as valid clicks, with
 * no bot clicks; a metric the export lacks is loaded as 0. Rows of an export over several accounts
 * (`report --profiles`) carry a `profile`: each profile's rows are loaded as an advertiser of that name,
 * unless the caller names the advertiser (then the rows must all be of one profile: never accounts merged).
 */

import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { createInterface } from "node:readline";
import { formatDate, formatDateTime, METRICS, type Metric } from "../../contract";
import { formatLoadLine } from "../model/load-format";

export type ExportGranularity = "hour" | "day";

/** An export this cannot load, and why (the operator's input: exit 2). */
export class ExportShapeError extends Error {
  override readonly name = "ExportShapeError";
}

export interface ExportConversion {
  rows: number;
  entity: "campaign" | "ad";
  granularity: ExportGranularity;
  /** True when the dates alone could not tell it and `granularity` was the caller's word. */
  granularityGiven: boolean;
  /** Metrics no row carried, loaded as 0. */
  missingMetrics: Metric[];
  /** The profiles of an export over several accounts, in the order they came (empty for one account). */
  profiles: string[];
  first?: number;
  last?: number;
}

const HOUR = 3600;
const DAY = 86_400;
const MAX_NAME = 1000;

type Row = { dimensions: Record<string, unknown>; metrics: Record<string, unknown> };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function positiveId(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

/** What the dates seen so far rule out. */
class GranularityEvidence {
  notDayAligned = false;
  notWeek = false;
  notMonth = false;
  /** The UTC hours of day the dates fall on: one or two (a daylight-saving change) for days in a zone. */
  readonly hoursOfDay = new Set<number>();
  /** The shortest step between two dates of one entity. */
  shortestGap: number | undefined;
  private previous: { entity: number; date: number } | undefined;

  see(entity: number, date: number): void {
    if (date % DAY !== 0) this.notDayAligned = true;
    if (this.hoursOfDay.size <= 2) this.hoursOfDay.add(Math.floor((date % DAY) / HOUR));
    // Day 0, 1970-01-01, was a Thursday: Mondays are the days with (days + 3) % 7 === 0.
    const days = Math.floor(date / DAY);
    if ((days + 3) % 7 !== 0) this.notWeek = true;
    if (!formatDate(date).endsWith("-01")) this.notMonth = true;
    const gap = this.previous?.entity === entity ? date - this.previous.date : undefined;
    if (gap !== undefined && gap > 0) this.shortestGap = Math.min(this.shortestGap ?? gap, gap);
    if (gap !== undefined && gap > 0 && gap < 7 * DAY) this.notWeek = true;
    if (gap !== undefined && gap > 0 && gap < 28 * DAY) this.notMonth = true;
    this.previous = { entity, date };
  }
}

function metricValue(row: Row, metric: Metric, line: number, seen: Set<Metric>): number {
  const value = row.metrics[metric];
  if (value === undefined) return 0;
  seen.add(metric);
  const ok =
    typeof value === "number" &&
    Number.isFinite(value) &&
    value >= 0 &&
    (metric === "spending" || Number.isSafeInteger(value));
  if (!ok) {
    throw new ExportShapeError(
      `line ${line}: metrics.${metric} is ${JSON.stringify(value)?.slice(0, 40)}, not ${metric === "spending" ? "an amount >= 0" : "a whole count >= 0"}`,
    );
  }
  return value;
}

function nameOf(value: unknown, line: number): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_NAME) {
    throw new ExportShapeError(`line ${line}: dimensions.name must be a text of 1 to ${MAX_NAME} characters`);
  }
  return value;
}

/** The row's `profile` (an export over several accounts), undefined when it has none. */
function profileOf(value: unknown, line: number): string | undefined {
  if (!isObject(value) || !("profile" in value)) return undefined;
  const profile = value.profile;
  if (typeof profile !== "string" || profile.length === 0 || profile.length > MAX_NAME) {
    throw new ExportShapeError(`line ${line}: profile must be a text of 1 to ${MAX_NAME} characters`);
  }
  return profile;
}

/** The load line of one export row, and the entity id the granularity evidence follows. */
function convertRow(
  value: unknown,
  line: number,
  advertiser: string,
  seen: Set<Metric>,
): { text: string; entity: "campaign" | "ad"; id: number; date: number } {
  if (!isObject(value) || !isObject(value.dimensions) || !isObject(value.metrics)) {
    throw new ExportShapeError(`line ${line}: not a report row (an object with dimensions and metrics)`);
  }
  const row = value as Row;
  const d = row.dimensions;
  if ("keyword_id" in d) {
    throw new ExportShapeError(`line ${line}: a keyword row; keyword reports have no dates, so cannot be loaded`);
  }
  if (!("date" in d)) {
    throw new ExportShapeError(`line ${line}: no date; export with date among the dimensions (--dims campaign,date)`);
  }
  const date = d.date;
  if (typeof date !== "number" || !Number.isSafeInteger(date) || date < 0 || date % HOUR !== 0) {
    throw new ExportShapeError(
      `line ${line}: dimensions.date ${JSON.stringify(date)?.slice(0, 40)} is not the start of an hour in epoch seconds`,
    );
  }
  const entity = "ad_id" in d ? "ad" : "campaign_id" in d ? "campaign" : undefined;
  if (entity === undefined) {
    throw new ExportShapeError(
      `line ${line}: no campaign or ad; export with one among the dimensions (--dims campaign,date or ad,date)`,
    );
  }
  const campaignId = d.campaign_id;
  const adId = entity === "ad" ? d.ad_id : campaignId;
  if (!positiveId(campaignId) || !positiveId(adId)) {
    throw new ExportShapeError(
      `line ${line}: ${entity === "ad" ? "ad_id and campaign_id" : "campaign_id"} must be positive integers`,
    );
  }
  const name = nameOf(d.name, line);
  const spending = metricValue(row, "spending", line, seen);
  const spendingMicros = Math.round(spending * 1e6);
  if (Math.abs(spending * 1e6 - spendingMicros) > 1e-3) {
    throw new ExportShapeError(`line ${line}: metrics.spending ${spending} has more than 6 decimals`);
  }
  const text = formatLoadLine({
    kind: "ad",
    fact: {
      advertiser,
      campaignId,
      campaign: entity === "ad" ? `campaign ${campaignId}` : name,
      adId,
      ad: name,
      hour: date,
      views: metricValue(row, "views", line, seen),
      clicks: metricValue(row, "clicks", line, seen),
      botClicks: 0,
      conversions: metricValue(row, "conversions", line, seen),
      spendingMicros,
    },
  });
  return { text, entity, id: adId, date };
}

/**
 * Buckets of a zone's days, weeks or months (report --tz): every date at one UTC hour of day (two across a
 * daylight-saving change), an entity's dates a day or more apart. Hourly rows fall on other hours too.
 */
function inZoneDays(evidence: GranularityEvidence): boolean {
  const gap = evidence.shortestGap;
  return evidence.hoursOfDay.size <= 2 && gap !== undefined && gap >= 23 * HOUR;
}

function decideGranularity(evidence: GranularityEvidence, given: ExportGranularity | undefined): ExportGranularity {
  if (evidence.notDayAligned && inZoneDays(evidence) && given !== "hour") {
    if (given === "day" || (evidence.shortestGap ?? 0) <= 25 * HOUR) return "day";
    throw new ExportShapeError("the dates (a zone's midnights, --tz) cannot tell daily from weekly or monthly buckets");
  }
  if (evidence.notDayAligned) {
    if (given === "day")
      throw new ExportShapeError("--granularity day, but some dates are not at 00:00 UTC: the export is hourly");
    return "hour";
  }
  if (given !== undefined) return given;
  if (evidence.notWeek && evidence.notMonth) return "day";
  throw new ExportShapeError(
    evidence.notWeek
      ? "every date is the 1st of a month: monthly buckets cannot be loaded (export with --granularity day or hour)"
      : evidence.notMonth
        ? "every date is a Monday: weekly buckets cannot be loaded (export with --granularity day or hour)"
        : "the dates cannot tell daily from weekly or monthly buckets",
  );
}

/** Converts `exportPath` into the load file `loadPath` (created 0600); throws ExportShapeError for a shape it refuses. */
export async function convertExport(
  exportPath: string,
  loadPath: string,
  options: {
    advertiser: string;
    advertiserGiven?: boolean;
    granularity?: ExportGranularity | undefined;
    /** Once aborted, the conversion stops by throwing the signal's reason. */
    stop?: AbortSignal | undefined;
  },
): Promise<ExportConversion> {
  const input = createReadStream(exportPath, { encoding: "utf8" });
  const output = createWriteStream(loadPath, { mode: 0o600, flags: "wx" });
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  const evidence = new GranularityEvidence();
  const seen = new Set<Metric>();
  let entity: "campaign" | "ad" | undefined;
  let rows = 0;
  let first: number | undefined;
  let last: number | undefined;
  let lineNumber = 0;
  const profiles: string[] = [];
  let withProfile: boolean | undefined;
  const advertiserOf = (value: unknown, line: number): string => {
    const profile = profileOf(value, line);
    if (withProfile !== undefined && withProfile !== (profile !== undefined)) {
      throw new ExportShapeError(`line ${line}: rows with and without a profile in one export`);
    }
    withProfile = profile !== undefined;
    if (profile === undefined) return options.advertiser;
    if (!profiles.includes(profile)) profiles.push(profile);
    if (options.advertiserGiven === true && profiles.length > 1) {
      throw new ExportShapeError(
        `line ${line}: rows of several profiles (${profiles.slice(0, 2).join(", ")}): --advertiser would merge their accounts into one; leave it out to load each profile as an advertiser of its own`,
      );
    }
    return options.advertiserGiven === true ? options.advertiser : profile;
  };
  const failed = new Promise<never>((_resolve, reject) => {
    input.once("error", reject);
    output.once("error", reject);
  });
  failed.catch(() => undefined);
  try {
    for await (const raw of lines) {
      options.stop?.throwIfAborted();
      lineNumber += 1;
      const text = lineNumber === 1 ? raw.replace(/^\uFEFF/, "") : raw;
      let out = "";
      if (text.trim() !== "") {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          throw new ExportShapeError(`line ${lineNumber}: not JSON; give an NDJSON export (report --format ndjson)`);
        }
        const row = convertRow(value, lineNumber, advertiserOf(value, lineNumber), seen);
        if (entity !== undefined && row.entity !== entity) {
          throw new ExportShapeError(`line ${lineNumber}: an ${row.entity} row in an export of ${entity} rows`);
        }
        entity = row.entity;
        evidence.see(row.id, row.date);
        first = first === undefined ? row.date : Math.min(first, row.date);
        last = last === undefined ? row.date : Math.max(last, row.date);
        rows += 1;
        out = row.text;
      }
      if (!output.write(`${out}\n`)) await Promise.race([once(output, "drain"), failed]);
    }
    output.end();
    await Promise.race([once(output, "finish"), failed]);
  } catch (error) {
    lines.close();
    input.destroy();
    output.destroy();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new ExportShapeError("no such file");
    if (code === "EISDIR") throw new ExportShapeError("is a folder");
    if (code === "EACCES") throw new ExportShapeError("permission denied");
    throw error;
  }
  if (entity === undefined) throw new ExportShapeError("the export has no rows");
  const granularity = decideGranularity(evidence, options.granularity);
  return {
    rows,
    entity,
    granularity,
    granularityGiven: options.granularity !== undefined && !evidence.notDayAligned,
    missingMetrics: METRICS.filter((m) => !seen.has(m)),
    profiles,
    ...(first === undefined ? {} : { first }),
    ...(last === undefined ? {} : { last }),
  };
}

/** `2026-10-01T00:00:00Z to 2026-10-31T23:00:00Z` */
export function describeSpan(conversion: ExportConversion): string {
  if (conversion.first === undefined || conversion.last === undefined) return "";
  return `${formatDateTime(conversion.first)} to ${formatDateTime(conversion.last)}`;
}
