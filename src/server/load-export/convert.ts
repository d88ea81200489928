/**
 * `serve load --from-export`: an NDJSON export of `adreport report` (one API row a line) with `date` and
 * `campaign` or `ad` among its dimensions, turned into the load format (docs/service.md §8), one load line
 * per export line (blank for blank), so the loader's line numbers are the export's.
 *
 * Each row (checked by export-row.ts) becomes one hour of one ad: its bucket's first hour. That is exact for
 * hourly buckets and keeps every daily total (a day's data lands at 00:00); the dates tell the buckets
 * (granularity.ts), and weekly and monthly ones are refused.
 * A campaign row becomes an ad of the same id and name in that campaign; an ad row's campaign is named
 * `campaign <id>` (an ad export does not carry campaign names). Clicks are loaded as valid clicks, with
 * no bot clicks; a metric the export lacks is loaded as 0. Rows of an export over several accounts
 * (`report --profiles`) carry a `profile`: each profile's rows are loaded as an advertiser of that name,
 * unless the caller names the advertiser (then the rows must all be of one profile: never accounts merged).
 */

import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { createInterface } from "node:readline";
import { METRICS, type Metric } from "../../contract";
import { formatDateTime } from "../../core/calendar";
import { COUNTERS, type Counts, ZERO_COUNTS } from "../model/counters";
import { formatLoadLine } from "../model/load-format";
import { type ExportRow, ExportShapeError, parseExportRow } from "./export-row";
import { decideGranularity, type ExportGranularity, GranularityEvidence } from "./granularity";

export { type ExportGranularity, ExportShapeError };

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

/** A row's metrics as an hour's counts: money in millionths; a counter the row has no metric for is 0. */
function countsOf(metrics: ExportRow["metrics"]): Counts {
  const counts = { ...ZERO_COUNTS };
  for (const c of COUNTERS) {
    const value = c.metric === undefined ? undefined : metrics[c.metric];
    if (value !== undefined) counts[c.name] = c.money ? Math.round(value * 1e6) : value;
  }
  return counts;
}

/** The load line of one export row: one hour of one ad, its bucket's first hour. */
function loadLine(row: ExportRow, advertiser: string, seen: Set<Metric>): string {
  for (const metric of METRICS) if (row.metrics[metric] !== undefined) seen.add(metric);
  return formatLoadLine({
    kind: "ad",
    fact: {
      advertiser,
      campaignId: row.campaignId,
      campaign: row.entity === "ad" ? `campaign ${row.campaignId}` : row.name,
      adId: row.adId,
      ad: row.name,
      hour: row.date,
      counts: countsOf(row.metrics),
    },
  });
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
  const advertiserOf = (profile: string | undefined, line: number): string => {
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
        const row = parseExportRow(value, lineNumber);
        out = loadLine(row, advertiserOf(row.profile, lineNumber), seen);
        if (entity !== undefined && row.entity !== entity) {
          throw new ExportShapeError(`line ${lineNumber}: an ${row.entity} row in an export of ${entity} rows`);
        }
        entity = row.entity;
        evidence.see(row.adId, row.date);
        first = first === undefined ? row.date : Math.min(first, row.date);
        last = last === undefined ? row.date : Math.max(last, row.date);
        rows += 1;
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
