/**
 * One output for every account of a run over several profiles, in profile order, each account's rows in
 * the service's order. Rows carry their profile: a first column `profile` in CSV, TSV and the table (through
 * the normal formatters, the profile as the first dimension), a first field `"profile"` in NDJSON and JSON
 * rows. JSON is one document whose `meta` holds each account's meta by profile name; it is written once every
 * account has ended, as its `meta` comes first. An account that failed is left out.
 */
import { rm } from "node:fs/promises";
import type { Writable } from "node:stream";
import type { ReportMeta, ReportRow, RowPage } from "../../contract";
import type { ReportStream } from "../../contract/report-stream";
import { zonedDateText } from "../../format/columns";
import type { FormatOptions, Formatter } from "../../format/formatter";
import type { FormatEntry } from "../../format/registry";
import { writeChunk } from "../../io/write";
import { epochDates, writeDates } from "../../transform/dates";
import { readSpooled, type SpooledReport } from "./spool";

/** What the accounts' JSON exports leave to the text formats, which show rows as one account's export would. */
export interface TextShaping {
  /** --fields with `profile` placed (first unless the user placed it). */
  fields?: readonly string[] | undefined;
  /** --date-format epoch: the JSON exports keep epoch seconds, which a text format would show as dates. */
  epochDates: boolean;
}

export interface AccountFeed {
  profile: string;
  /** Settles when the account has ended: the path of its spooled export, or undefined when it failed. */
  spooled: Promise<string | undefined>;
}

/** Each account that succeeded, in order, as soon as it and every one before it have ended. */
async function* succeeded(feeds: readonly AccountFeed[]): AsyncGenerator<{ profile: string; report: SpooledReport }> {
  for (const feed of feeds) {
    const path = await feed.spooled;
    if (path === undefined) continue;
    let report: SpooledReport | undefined;
    try {
      report = await readSpooled(path);
      yield { profile: feed.profile, report };
    } finally {
      report?.close();
      await rm(path, { force: true });
    }
  }
}

/**
 * The row's JSON with `"profile"` as its first field, the rest as the service sent it. A row that has a
 * `profile` of its own (or may have, behind an escape) is parsed, and its `profile` gives way.
 */
function withProfile(profile: string, text: string): string {
  const name = JSON.stringify(profile);
  if (!text.includes('"profile"') && !text.includes("\\u") && text.startsWith("{")) {
    const rest = text.slice(1).trimStart();
    return rest.startsWith("}") ? `{"profile":${name}}` : `{"profile":${name},${rest}`;
  }
  const { profile: _theirs, ...row } = JSON.parse(text) as Record<string, unknown>;
  return JSON.stringify({ profile, ...row });
}

async function writeNdjson(feeds: readonly AccountFeed[], out: Writable): Promise<void> {
  for await (const { profile, report } of succeeded(feeds)) {
    for await (const rows of report.pages) {
      await writeChunk(out, rows.map((row) => `${withProfile(profile, row)}\n`).join(""));
    }
  }
}

async function writeJson(feeds: readonly AccountFeed[], out: Writable): Promise<void> {
  await Promise.all(feeds.map((feed) => feed.spooled));
  const entries: Array<[string, unknown]> = [];
  for (const feed of feeds) {
    const path = await feed.spooled;
    if (path === undefined) continue;
    const { meta, close } = await readSpooled(path);
    close();
    entries.push([feed.profile, meta]);
  }
  if (entries.length === 0) return;
  // fromEntries makes each name an own property, a profile named __proto__ too.
  await writeChunk(out, `{"meta":${JSON.stringify(Object.fromEntries(entries))},"data":[`);
  let separator = "\n";
  for await (const { profile, report } of succeeded(feeds)) {
    for await (const rows of report.pages) {
      await writeChunk(out, separator + rows.map((row) => withProfile(profile, row)).join(",\n"));
      separator = ",\n";
    }
  }
  await writeChunk(out, "\n]}\n");
}

/** `withZone`: keeps `tz`, for writing that account's dates (the merged meta has none: accounts may differ). */
function mergedMeta(meta: Record<string, unknown>, withZone = false): ReportMeta {
  const strings = (value: unknown) =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  return {
    ...(withZone && typeof meta.tz === "string" ? { tz: meta.tz } : {}),
    granularity: typeof meta.granularity === "string" ? meta.granularity : "day",
    dimensions: ["profile", ...strings(meta.dimensions).filter((d) => d !== "profile")],
    metrics: strings(meta.metrics),
    total: typeof meta.total === "number" ? meta.total : 0,
    page: 1,
    limit: 1,
    has_more: false,
  };
}

/** An account's row with its profile, and its date as text when the account's report is in a zone (--tz). */
function accountRow(text: string, profile: string, dateText: ((value: unknown) => string) | undefined): ReportRow {
  const row = JSON.parse(text) as ReportRow;
  const dimensions: ReportRow["dimensions"] = { ...row.dimensions, profile };
  if (dateText !== undefined && typeof dimensions.date === "number") dimensions.date = dateText(dimensions.date);
  return { ...row, dimensions };
}

/**
 * CSV, TSV and the table: the normal formatter over every account's rows, the profile as first dimension,
 * then the columns --fields chose (`fields`) when given. Each account's dates are written in its own zone.
 */
async function writeTabular(
  feeds: readonly AccountFeed[],
  formatter: Formatter,
  out: Writable,
  options: FormatOptions,
  shaping: TextShaping,
): Promise<void> {
  const accounts = succeeded(feeds);
  const first = await accounts.next();
  if (first.done) return;
  async function* pages(): AsyncGenerator<RowPage> {
    try {
      for (let at = first; !at.done; at = await accounts.next()) {
        const { profile } = at.value;
        // --date-format epoch keeps the seconds; otherwise each account's dates are text in its own zone.
        const dateText = shaping.epochDates ? undefined : zonedDateText(mergedMeta(at.value.report.meta, true));
        for await (const rows of at.value.report.pages) {
          yield { rows: rows.map((text) => accountRow(text, profile, dateText)) };
        }
      }
    } finally {
      await accounts.return(undefined);
    }
  }
  const report: ReportStream = {
    meta: mergedMeta(first.value.report.meta),
    totalKnown: true,
    pages: pages(),
    fields: shaping.fields,
  };
  await formatter.write(shaping.epochDates ? writeDates(report, epochDates) : report, out, options);
}

export async function writeMerged(
  feeds: readonly AccountFeed[],
  format: FormatEntry,
  out: Writable,
  options: FormatOptions,
  shaping: TextShaping = { epochDates: false },
): Promise<void> {
  if (format.mergedAs === "json-document") return writeJson(feeds, out);
  if (format.mergedAs === "json-lines") return writeNdjson(feeds, out);
  return writeTabular(feeds, await format.load(), out, options, shaping);
}
