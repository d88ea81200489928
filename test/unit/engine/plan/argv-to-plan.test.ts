/**
 * From a `report` command line to the plan the engine runs, as gh tests its commands: one row per line,
 * the fields of the plan it makes (request, output, format, shape, comparison, zone, whole days) or the
 * refusal a user reads. The real program parses the words; the real planner plans them with the settings
 * of a clean HOME (plus the row's environment and config file). Nothing is sent: no row needs a service.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ReportPlan } from "../../../../src/engine/plan/plan";
import { configDirWith } from "../../../helpers/config";
import { memoryContext } from "../../../helpers/memory-context";
import { KEY, ORIGIN } from "../../../helpers/mock-api";
import { planOfArgv } from "../../../helpers/report-plan";
import { tempDir } from "../../../helpers/temp";

/** Monday 2026-11-23, 10:00 UTC: yesterday is 2026-11-22, the default range 2026-11-16..2026-11-22. */
const NOW = new Date("2026-11-23T10:00:00Z");
/** 2026-10-01T00:00:00Z: how the plan writes a date bucket, seen through its --date-format stage. */
const A_DAY = 1_790_812_800;

/** The fields of a plan a row checks, in words a reader compares with the command line. */
function fieldsOf(plan: Readonly<ReportPlan>) {
  const { request } = plan;
  const output = plan.output;
  const common = {
    kind: plan.kind,
    from: request.request.from,
    to: request.request.to,
    days: `${request.fromDate}..${request.toDate}`,
    dims: request.request.dimensions.join(","),
    metrics: request.request.metrics.join(","),
    listed: request.listed.join(","),
    granularity: request.request.granularity,
    campaign: request.request.campaignId,
    ad: request.request.adId,
    windows: request.windows?.length ?? 1,
    zone: request.zone.name,
    bucketUnit: request.bucketUnit,
    pageSize: plan.paging.pageSize,
    concurrency: plan.paging.concurrency,
    output:
      output.kind === "stdout"
        ? "stdout"
        : output.kind === "file"
          ? `file ${output.template}`
          : `${output.target.kind === "files" ? "days" : output.target.kind} ${output.given}${
              "table" in output.target ? `#${output.target.table}` : ""
            }`,
    format: plan.write?.format.entry.name,
    spreadsheet: plan.write?.format.spreadsheet,
    bom: plan.write?.options.bom,
    quiet: plan.quiet,
    verbose: plan.verbose,
    /** --dry-run only: the output's folder is missing, shown before the dry run refuses as the run does. */
    folder: plan.folder && `${plan.folder.folder}: ${plan.folder.problem}`,
  };
  if (plan.kind === "days") {
    return {
      ...common,
      dayGranularity: plan.granularity,
      incremental: plan.incremental && {
        lookbackDays: plan.incremental.lookbackDays,
        start: plan.incremental.start,
        stateFile: plan.incremental.stateFile,
      },
    };
  }
  const { shape, compare } = plan;
  return {
    ...common,
    path: plan.path,
    record: plan.record,
    sort: shape.sort && `${shape.sort.metric}:${shape.sort.descending ? "desc" : "asc"}`,
    top: shape.top,
    fields: shape.fields?.join(","),
    fill: shape.fill !== undefined,
    dates: shape.dates === undefined ? "as sent" : shape.dates(A_DAY),
    totals: shape.totals,
    keepCounters: shape.metrics.keepCounters,
    compare: compare && `${compare.mode} ${compare.period.request.from}..${compare.period.request.to}`,
  };
}

type Fields = ReturnType<typeof fieldsOf> & { dayGranularity?: string; incremental?: object };

interface Row {
  name: string;
  argv: string[];
  /** Added to a clean environment holding a key and a base URL. */
  env?: Record<string, string | undefined>;
  /** Settings of a config file in its own folder. */
  config?: Record<string, unknown>;
  now?: string;
  tty?: boolean;
  want?: Partial<Fields>;
  warns?: string[];
  /** The first line on stderr, without `adreport: `. */
  refused?: string;
  code?: number;
}

const DAYS = ["--dims", "campaign,date", "--from", "2026-11-01", "--to", "2026-11-07"];
const OCTOBER = ["--from", "2026-10-01", "--to", "2026-10-31"];

const rows: Row[] = [
  // Dates and the cron words, by one clock.
  {
    name: "no flags: the last 7 complete UTC days, every counter, CSV on a pipe",
    argv: [],
    want: {
      kind: "export",
      from: "2026-11-16",
      to: "2026-11-22",
      dims: "",
      metrics: "views,spending,clicks,conversions",
      output: "stdout",
      format: "csv",
      zone: "UTC",
      pageSize: 1000,
      concurrency: 4,
      compare: undefined,
    },
    warns: [],
  },
  {
    name: "no flags on a terminal: a table with its totals row",
    argv: [],
    tty: true,
    want: { format: "table", totals: true },
  },
  { name: "today and today", argv: ["--from", "today", "--to", "today"], want: { days: "2026-11-23..2026-11-23" } },
  {
    name: "yesterday and yesterday",
    argv: ["--from", "yesterday", "--to", "yesterday"],
    want: { from: "2026-11-22", to: "2026-11-22" },
  },
  {
    name: "-30d to -1d",
    argv: ["--from", "-30d", "--to", "-1d"],
    want: { from: "2026-10-24", to: "2026-11-22", windows: 1 },
  },
  {
    name: "date-times with Z and with an offset are sent as given",
    argv: ["--from", "2026-11-01T13:00:00Z", "--to", "2026-11-01T15:00:00+02:00"],
    want: { from: "2026-11-01T13:00:00Z", to: "2026-11-01T15:00:00+02:00", days: "2026-11-01..2026-11-01" },
  },
  {
    name: "half a year by week: fetched in 90-day windows",
    argv: ["--from", "2026-01-01", "--to", "2026-06-30", "--dims", "ad,date", "--granularity", "week"],
    want: { windows: 3, granularity: "week", dims: "ad,date" },
  },
  {
    name: "half a year with --no-split is refused",
    argv: ["--from", "2026-01-01", "--to", "2026-06-30", "--no-split"],
    refused: "--to: range is 180 days 23h 59m 59s, at most 90 days",
  },
  {
    name: "a --from of no known form",
    argv: ["--from", "last week"],
    refused:
      '--from: "last week" is not one of: today, yesterday, -Nd (N days before today), a date (2026-11-01) or a date-time with Z or an offset (2026-11-01T13:00:00Z, 2026-11-01T15:00:00+02:00)',
  },
  {
    name: "a -Nd before 1970",
    argv: ["--from", "-100000d"],
    refused: "--from: -100000d is out of range: the earliest day is 1970-01-01, which is -20780d today",
  },
  {
    name: "--from after --to",
    argv: ["--from", "2026-11-10", "--to", "2026-11-01"],
    refused: "--to: 2026-11-01T23:59:59Z is before from 2026-11-10T00:00:00Z",
  },

  // Time zones: the flag, the environment, the config file.
  {
    name: "--tz with date: the zone's days as UTC instants, hours fetched and summed into days",
    argv: ["--tz", "Europe/Berlin", "--dims", "campaign,date", ...OCTOBER],
    want: {
      from: "2026-09-30T22:00:00Z",
      to: "2026-10-31T22:59:59Z",
      days: "2026-10-01..2026-10-31",
      granularity: "hour",
      bucketUnit: "day",
      zone: "Europe/Berlin",
    },
  },
  {
    name: "--tz without date: the zone's days, no hours",
    argv: ["--tz", "Europe/Berlin", "--dims", "campaign", ...OCTOBER],
    want: { from: "2026-09-30T22:00:00Z", granularity: undefined, bucketUnit: undefined },
  },
  {
    name: "ADREPORT_TZ counts today in that zone",
    argv: ["--from", "today", "--to", "today"],
    env: { ADREPORT_TZ: "America/New_York" },
    now: "2026-11-23T02:00:00Z",
    want: { zone: "America/New_York", days: "2026-11-22..2026-11-22", from: "2026-11-22T05:00:00Z" },
  },
  {
    name: "the tz setting of the config file",
    argv: ["--dims", "date", ...OCTOBER],
    config: { tz: "Asia/Tokyo" },
    want: { zone: "Asia/Tokyo", from: "2026-09-30T15:00:00Z", bucketUnit: "day" },
  },
  {
    name: "--tz that names no zone",
    argv: ["--tz", "Mars/Olympus"],
    refused: '--tz: "Mars/Olympus" is not a time zone; expected an IANA name such as Europe/Berlin or UTC',
  },
  {
    name: "--tz whose offset is not whole hours",
    argv: ["--tz", "Asia/Kolkata", "--dims", "date"],
    refused:
      "--tz: Asia/Kolkata is +05:30 from UTC on 2026-11-16, not a whole hour, so its days cannot be built from the service's hourly buckets",
  },

  // --compare.
  {
    name: "--compare previous: the week before",
    argv: ["--compare", "previous", "--from", "2026-10-08", "--to", "2026-10-14"],
    want: { compare: "previous 2026-10-01T00:00:00Z..2026-10-07T23:59:59Z" },
  },
  {
    name: "--compare year: the same days a year earlier",
    argv: ["--compare", "year", ...OCTOBER],
    want: { compare: "year 2025-10-01T00:00:00Z..2025-10-31T23:59:59Z" },
  },
  {
    name: "--compare previous by month: the month before, not 31 days",
    argv: ["--compare", "previous", "--dims", "date", "--granularity", "month", ...OCTOBER],
    want: { compare: "previous 2026-09-01T00:00:00Z..2026-09-30T23:59:59Z" },
  },
  {
    name: "--compare previous with --tz: the zone's week before",
    argv: ["--compare", "previous", "--tz", "Europe/Berlin", "--from", "2026-10-26", "--to", "2026-11-01"],
    want: { compare: "previous 2026-10-18T22:00:00Z..2026-10-25T22:59:59Z" },
  },
  {
    name: "--compare of no known period",
    argv: ["--compare", "bogus"],
    refused: "option '--compare <period>' argument 'bogus' is invalid. Allowed choices are previous, year.",
  },
  {
    name: "--compare previous before 1970",
    argv: ["--compare", "previous", "--from", "1970-01-01", "--to", "1970-01-10"],
    refused: "--compare previous: the period before the range would start before 1970-01-01",
  },

  // Shaping: --metrics, --sort, --top, --fields, --fill, --date-format.
  {
    name: "ratios fetch their counters; --sort and --top",
    argv: ["--dims", "campaign", "--metrics", "clicks,ctr", "--sort", "ctr", "--top", "10"],
    want: { listed: "clicks,ctr", metrics: "clicks,views", sort: "ctr:desc", top: 10 },
  },
  { name: "--top alone sorts by the first metric", argv: ["--top", "5"], want: { sort: "views:desc", top: 5 } },
  { name: "--sort METRIC:asc", argv: ["--sort", "clicks:asc"], want: { sort: "clicks:asc", top: undefined } },
  {
    name: "--sort by a metric not output",
    argv: ["--metrics", "clicks", "--sort", "ctr"],
    refused: '--sort: "ctr" is not a metric of this report; use clicks',
  },
  {
    name: "--sort with a direction of no known form",
    argv: ["--sort", "clicks:up"],
    refused: '--sort: "clicks:up" is not METRIC, METRIC:asc or METRIC:desc',
  },
  { name: "--top 0", argv: ["--top", "0"], refused: '--top: "0" is not a whole number >= 1' },
  {
    name: "--fields picks and orders the columns",
    argv: ["--dims", "campaign,date", "--fields", "date,name,clicks"],
    want: { fields: "date,name,clicks" },
  },
  {
    name: "--fields naming no column",
    argv: ["--dims", "campaign", "--fields", "nope"],
    refused:
      '--fields: "nope" is not a column of this report; use campaign_id, name, views, spending, clicks, conversions',
  },
  {
    name: "--fill without date",
    argv: ["--dims", "campaign", "--fill"],
    refused: "--fill needs date in --dims: it fills the empty date buckets of the range",
  },
  { name: "--fill with date", argv: ["--dims", "campaign,date", "--fill"], want: { fill: true } },
  {
    name: "JSON keeps epoch dates; --date-format iso writes days",
    argv: ["--dims", "date", "--date-format", "iso", "-o", "x.json"],
    want: { format: "json", dates: "2026-10-01" },
  },
  {
    name: "CSV writes ISO dates; --date-format epoch writes seconds",
    argv: ["--dims", "date", "--date-format", "epoch"],
    want: { format: "csv", dates: String(A_DAY) },
  },

  // Formats: the flag, the file's ending, the settings.
  { name: "-o x.tsv", argv: ["-o", "x.tsv"], want: { format: "tsv", output: "file x.tsv", path: "x.tsv" } },
  { name: "-o x.ndjson", argv: ["-o", "x.ndjson"], want: { format: "ndjson", dates: "as sent" } },
  {
    name: "-o x.html keeps the counters for its charts",
    argv: ["-o", "x.html"],
    want: { format: "html", keepCounters: true, totals: true },
  },
  { name: "-f ndjson wins over the ending", argv: ["-f", "ndjson", "-o", "x.csv"], want: { format: "ndjson" } },
  {
    name: "an ending adreport does not know",
    argv: ["-o", "x.xlsx"],
    refused:
      "cannot tell the format of x.xlsx from its ending; known endings: .txt, .csv, .tsv, .json, .ndjson, .jsonl, .parquet, .html, .htm",
  },
  {
    name: "{from} and {to} in a file's name",
    argv: ["-o", "daily-{from}-{to}.csv", "--from", "-7d"],
    want: { output: "file daily-{from}-{to}.csv", path: "daily-2026-11-16-2026-11-22.csv" },
  },
  {
    name: "--spreadsheet into a file",
    argv: ["--spreadsheet", "-o", "x.csv"],
    want: { format: "csv", spreadsheet: true },
  },
  {
    name: "--spreadsheet with JSON",
    argv: ["--spreadsheet", "-f", "json"],
    refused: "--spreadsheet makes CSV; the output here is json",
  },
  {
    name: "--bom and --delimiter with NDJSON: warned, not refused",
    argv: ["--bom", "--delimiter", ";", "-o", "x.ndjson"],
    want: { format: "ndjson" },
    warns: [
      "--bom applies to CSV only; the ndjson output has no byte-order mark",
      "--delimiter applies to CSV only; it does nothing to the ndjson output",
    ],
  },
  { name: "the format setting on stdout", argv: [], config: { format: "ndjson" }, want: { format: "ndjson" } },
  {
    name: "the spreadsheet setting: a file is for a spreadsheet",
    argv: ["-o", "x.csv"],
    config: { spreadsheet: true },
    want: { spreadsheet: true },
  },
  {
    name: "the spreadsheet setting: stdout is for a pipeline",
    argv: [],
    config: { spreadsheet: true },
    want: { format: "csv", spreadsheet: false },
  },

  // Whole days: {date} files, SQLite, PostgreSQL.
  {
    name: "{date} files: a run of whole days in CSV",
    argv: [...DAYS, "-o", "out/{date}.csv"],
    want: {
      kind: "days",
      output: "days out/{date}.csv",
      format: "csv",
      dayGranularity: "day",
      days: "2026-11-01..2026-11-07",
      incremental: undefined,
    },
  },
  { name: "{date} files in NDJSON", argv: [...DAYS, "-o", "out/{date}.ndjson"], want: { format: "ndjson" } },
  {
    name: "{date} files as HTML pages",
    argv: [...DAYS, "-o", "out/{date}.html"],
    refused: "--format html cannot be used with {date} in --output: it keeps the service's UTC days and counters",
  },
  {
    name: "{date} files without date",
    argv: ["--dims", "campaign", "-o", "out/{date}.csv"],
    refused: "{date} in --output needs date among the dimensions (--dims ...,date): it writes whole days",
  },
  {
    name: "{date} files up to today",
    argv: ["--dims", "campaign,date", "--to", "today", "-o", "out/{date}.csv"],
    refused: "{date} in --output writes complete days: --to 2026-11-23 is after the last complete UTC day (2026-11-22)",
  },
  {
    name: "{date} files in a missing folder",
    argv: [...DAYS, "-o", "missing/{date}.csv"],
    refused: "cannot write missing/{date}.csv: no such folder",
  },
  {
    name: "{date} files in a missing folder, --dry-run: the plan holds the folder to show",
    argv: [...DAYS, "-o", "missing/{date}.csv", "--dry-run"],
    want: { kind: "days", folder: "missing: no such folder" },
  },
  {
    name: "a file in a missing folder, --dry-run",
    argv: ["-o", "missing/x.csv", "--dry-run"],
    want: { kind: "export", folder: "missing: no such folder" },
  },
  {
    name: "a file in a missing folder",
    argv: ["-o", "missing/x.csv"],
    refused: "cannot write missing/x.csv: no such folder",
  },
  {
    name: "{date} with {from}",
    argv: [...DAYS, "-o", "out/{date}-{from}.csv"],
    refused: "--output: {date} names one file per day; it does not go with {from} or {to}",
  },
  {
    name: "sqlite: a table named for the dimensions",
    argv: [...DAYS, "-o", "sqlite:ads.db"],
    want: { kind: "days", output: "sqlite ads.db#adreport_campaign_date", format: undefined },
  },
  {
    name: "sqlite: --table",
    argv: [...DAYS, "-o", "sqlite:ads.db", "--table", "daily"],
    want: { output: "sqlite ads.db#daily" },
  },
  {
    name: "sqlite: without a path",
    argv: [...DAYS, "-o", "sqlite:"],
    refused: "--output sqlite:PATH needs the database file's path",
  },
  {
    name: "--table that is no table name",
    argv: [...DAYS, "-o", "sqlite:ads.db", "--table", "two words"],
    refused: '--table: "two words" is not a table name (letters, digits and _, at most 63)',
  },
  {
    name: "--table with a file",
    argv: ["--table", "daily", "-o", "x.csv"],
    refused: "--table applies to database targets only (sqlite:PATH, duckdb:PATH, postgres://...)",
  },
  {
    name: "postgres://: a table in that database",
    argv: [...DAYS, "-o", "postgres://ads@127.0.0.1:5432/ads"],
    want: { kind: "days", output: "postgres postgres://ads@127.0.0.1:5432/ads#adreport_campaign_date" },
  },
  {
    name: "a database with --tz",
    argv: [...DAYS, "-o", "sqlite:ads.db", "--tz", "Europe/Berlin"],
    refused: "--tz cannot be used with a database target: it keeps the service's UTC days and counters",
  },
  {
    name: "a database with a ratio",
    argv: [...DAYS, "-o", "sqlite:ads.db", "--metrics", "clicks,ctr"],
    refused: "ratios in --metrics cannot be used with a database target: it keeps the service's UTC days and counters",
  },
  {
    name: "a database with ADREPORT_TZ: warned, UTC days kept",
    argv: [...DAYS, "-o", "sqlite:ads.db"],
    env: { ADREPORT_TZ: "Europe/Berlin" },
    want: { zone: "UTC", from: "2026-11-01" },
    warns: ['the time zone "Europe/Berlin" (environment) is not used: a database target keeps the service\'s UTC days'],
  },

  // --incremental.
  {
    name: "--incremental into {date} files, from --start",
    argv: ["--incremental", "--start", "2026-01-01", "--dims", "campaign,date", "-o", "out/{date}.csv"],
    want: { kind: "days", incremental: { lookbackDays: 3, start: "2026-01-01", stateFile: undefined } },
  },
  {
    name: "--incremental into SQLite with --lookback 0d and a state file",
    argv: [
      "--incremental",
      "--lookback",
      "0d",
      "--state-file",
      "job.json",
      "--dims",
      "campaign,date",
      "-o",
      "sqlite:a.db",
    ],
    want: { incremental: { lookbackDays: 0, start: undefined, stateFile: "job.json" } },
  },
  {
    name: "--incremental into one file",
    argv: ["--incremental", "--dims", "campaign,date", "-o", "x.csv"],
    refused: "--incremental needs an output it can rewrite day by day: -o with {date}, or a database target",
  },
  {
    name: "--incremental with --from",
    argv: ["--incremental", "--from", "-3d", "--dims", "campaign,date", "-o", "out/{date}.csv"],
    refused: "--incremental computes the range itself: drop --from and --to",
  },
  {
    name: "--lookback without --incremental",
    argv: ["--lookback", "3d"],
    refused: "--lookback applies to --incremental runs only",
  },
  {
    name: "--state-file without --incremental",
    argv: ["--state-file", "job.json"],
    refused: "--state-file applies to --incremental runs only",
  },

  // The request's words and the settings.
  {
    name: "--campaign and --ad filter the request",
    argv: ["--campaign", "12", "--ad", "34", "--dims", "date"],
    want: { campaign: 12, ad: 34 },
  },
  { name: "--campaign 0", argv: ["--campaign", "0"], refused: '--campaign: "0" is not a positive integer id' },
  {
    name: "two entities in --dims",
    argv: ["--dims", "campaign,ad"],
    refused: "--dims: at most one of campaign, ad, keyword (got campaign, ad)",
  },
  {
    name: "a metric of no report",
    argv: ["--metrics", "views,bogus"],
    refused: '--metrics: unknown name "bogus"; use views, spending, clicks, conversions, ctr, cpc, cpm, cvr, cpa',
  },
  {
    name: "keyword reports without conversions",
    argv: ["--dims", "keyword", "--metrics", "conversions"],
    refused: "--metrics: conversions not available for the keyword dimension (use views, spending, clicks)",
  },
  {
    name: "--granularity without date: warned",
    argv: ["--granularity", "week", "--dims", "campaign"],
    warns: ["--granularity week does nothing without date in --dims (the service ignores it)"],
  },
  {
    name: "--page-size and --concurrency",
    argv: ["--page-size", "250", "--concurrency", "2"],
    want: { pageSize: 250, concurrency: 2 },
  },
  {
    name: "-q and --record",
    argv: ["-q", "--record", "rec"],
    want: { quiet: true, verbose: false, record: "rec" },
  },
  { name: "-v", argv: ["-v"], want: { quiet: false, verbose: true, record: undefined, folder: undefined } },
  {
    name: "--page-size 0",
    argv: ["--page-size", "0"],
    refused: "--page-size: expected a whole number from 1 to 10000",
  },
  { name: "no key anywhere", argv: [], env: { ADREPORT_API_KEY: undefined }, refused: "no API key", code: 3 },
];

describe("report: argv to plan", () => {
  it.each(rows)("$name", async (row) => {
    const cwd = tempDir("adreport-cwd-");
    mkdirSync(join(cwd, "out"));
    const env: Record<string, string | undefined> = { ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: ORIGIN, ...row.env };
    if (row.config) env.ADREPORT_CONFIG_DIR = configDirWith(row.config);
    const { ctx, stderr } = memoryContext({ env, cwd, now: new Date(row.now ?? NOW), outIsTTY: row.tty });
    const got = await planOfArgv(ctx, stderr, row.argv);
    if (row.refused !== undefined) {
      expect(got).toEqual({ refused: row.refused, code: row.code ?? 2 });
      return;
    }
    if (!("plan" in got)) throw new Error(`refused: ${got.refused}`);
    expect(fieldsOf(got.plan)).toMatchObject(row.want ?? {});
    if (row.warns !== undefined) expect(got.warnings).toEqual(row.warns);
    expect(Object.isFrozen(got.plan)).toBe(true);
  });
});
