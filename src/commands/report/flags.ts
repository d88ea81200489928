/** The flags of `adreport report`, declared: their names, forms and help. */
import { type Command, Option } from "@commander-js/extra-typings";
import { DIMENSIONS, METRICS } from "../../contract/fields";
import { DERIVED_METRICS } from "../../core/derived-metrics";
import { DATE_FORMATS, FORMAT_NAMES } from "../../core/formats";
import { COMPARE_MODES } from "../../engine/plan/compare-modes";
import type { OptionsOf } from "../shared/declared";
import { collect, integerOption, nameOption } from "../shared/parse";

export function declareReport(program: Command) {
  return program
    .command("report")
    .description("pull a report, every page of it, and export it as a table, CSV, TSV, JSON, NDJSON or Parquet")
    .option(
      "--from <when>",
      'start: today, yesterday, -Nd, YYYY-MM-DD or an ISO 8601 date-time (UTC); the default range is the last 7 complete UTC days (default: "-7d")',
    )
    .option("--to <when>", 'end, inclusive: same forms; a date means its last second (default: "yesterday")')
    .option(
      "--metrics <list>",
      `comma list of ${METRICS.join(", ")} and the ratios ${DERIVED_METRICS.join(", ")}, output in that order (default: every counter the dimensions allow)`,
    )
    .option(
      "--dims, --dimensions <list>",
      `comma list of ${DIMENSIONS.join(", ")}: at most one entity, keyword not with date`,
    )
    .option("--granularity <unit>", "date buckets: hour, day, week, month (default day)")
    .option(
      "--tz <zone>",
      "IANA time zone (Europe/Berlin) of the days of --from/--to (today, yesterday, -Nd, dates) and of date buckets (default UTC, or the tz setting); with date it fetches hourly rows, 24x those of a daily report, and sums them here",
    )
    .addOption(
      new Option(
        "--compare <period>",
        "add <metric>_prev and <metric>_change: previous (the same length just before) or year (a year earlier)",
      ).choices(COMPARE_MODES),
    )
    .option("--campaign <id>", "only this campaign")
    .option("--ad <id>", "only this ad")
    .option(
      "--fields <list>",
      "comma list of the output columns, in order: dimension keys (name, campaign_id, date) and metrics",
    )
    .option(
      "--sort <metric>",
      "order rows by a metric: METRIC or METRIC:desc (largest first), METRIC:asc; rows without a value last. Without --top it holds every row",
    )
    .option(
      "--top <n>",
      "only the first N rows after sorting (by --sort, else the first metric, largest first); holds N rows",
    )
    .option("--fill", "a row of zeros for every empty date bucket of the range, per entity seen (needs date in --dims)")
    .addOption(
      new Option(
        "--date-format <form>",
        "how date is written: iso or epoch seconds (default: iso in csv, tsv and table; epoch in json and ndjson; parquet always has a DATE or TIMESTAMP column)",
      ).choices(DATE_FORMATS),
    )
    .addOption(
      new Option(
        "-f, --format <format>",
        "output format (default: table on a terminal, else csv); parquet: typed, compressed columns for DuckDB, pandas or Spark (to a file or a pipe, never a terminal); html: one page with charts and a sortable table; chart: a line chart of the first metric over dates for a terminal",
      )
        .choices(FORMAT_NAMES)
        .argParser(nameOption("format", FORMAT_NAMES)),
    )
    .option(
      "-o, --output <file>",
      "write to FILE atomically (a device or named pipe directly, - for stdout); {from} and {to} become YYYY-MM-DD; {date} writes one file per date bucket; sqlite:PATH, duckdb:PATH or postgres://USER@HOST:PORT/DB fill a table; the ending picks the format",
    )
    .option("--page-size <n>", "rows to ask for per page (default 1000)")
    .option("--concurrency <n>", "pages fetched at once (default 4)")
    .option("--timeout <duration>", "per request: 30s, 500ms, 2m (default 30s)")
    .option("--retries <n>", "retries after network errors, timeouts, 429 and 5xx (default 4)")
    .option(
      "--rate <rate>",
      "at most this many requests to the service: N/s or N/min, for a quota it does not announce or to leave room to others (default: the rate setting, else the pace the service allows)",
    )
    .option("--max-time <duration>", "give up on the whole export after this long: 10m, 1h (default none)")
    .option(
      "--incremental",
      "export the days after the last one this job exported, and --lookback days before it, up to yesterday (UTC); needs -o with {date} or a database target",
    )
    .option(
      "--lookback <days>",
      "with --incremental: days fetched again each run for restated data: 3d, 0d (default 3d), or auto: first ask the service's totals over the horizon this job's restatements were seen to reach, and fetch again only the days whose totals moved (adreport help cron)",
    )
    .option("--start <date>", "with --incremental: the first day of the first run (YYYY-MM-DD, UTC)")
    .option(
      "--state-file <file>",
      "with --incremental: keep the job's state in FILE, not in the config folder (nor in a database target's adreport_jobs)",
    )
    .option("--table <name>", "database target: the table to fill (default adreport_<dimensions>)")
    .addOption(
      new Option("--summary <format>", "print the run's outcome as one JSON object on stderr").choices(["json"]),
    )
    .option("--summary-file <file>", "write the --summary JSON to FILE (atomically) instead of stderr")
    .option(
      "--dry-run",
      "print the plan on stdout (range, 90-day windows, output, job, state and lock, the days fetched again) and exit 0: no request, no file, folder, table, state or lock; with --summary json, the plan as JSON too",
    )
    .option("--base-url <url>", "the service (env ADREPORT_BASE_URL)")
    .option("--profile <name>", "the profile whose key and settings to use (env ADREPORT_PROFILE)")
    .option(
      "--profiles <names>",
      "run the report for each of these profiles (comma list, repeatable); rows carry the profile, {profile} in --output makes a file each",
      collect,
    )
    .option(
      "--all-profiles",
      "run the report for every profile in the config file; --incremental into postgres://: several hosts may run the same line at once, each account by one of them",
    )
    .option(
      "--account-concurrency <n>",
      "with --profiles/--all-profiles: accounts fetched at once (default 2)",
      integerOption(1, 32),
    )
    .option(
      "--allow-partial",
      "with --profiles/--all-profiles and one --output file: write it with the accounts that succeeded (exit 6)",
    )
    .addOption(
      new Option("--api-key <key>", "the key itself: visible to other users in ps; prefer ADREPORT_API_KEY").hideHelp(),
    )
    .option("--delimiter <char>", "CSV field delimiter; `tab` for a tab (default ,); TSV readers want --format tsv")
    .option("--bom", "CSV: start with a UTF-8 byte-order mark (for spreadsheet programs)")
    .option(
      "--spreadsheet",
      "CSV for spreadsheet programs: byte-order mark, CRLF, text cells starting with = + - @ tab or CR prefixed with ' (implies csv)",
    )
    .option("--no-spreadsheet", "plain CSV even when the spreadsheet setting is on")
    .option("--no-split", "refuse ranges over 90 days instead of fetching them in 90-day windows")
    .option("-q, --quiet", "no progress on stderr")
    .option("-v, --verbose", "log every request (method, URL, status, time, retries) on stderr")
    .option(
      "--record <dir>",
      "keep every request and answer in a new folder (0700), without the key, for `adreport serve replay`; several accounts: one folder each, DIR/<profile>",
    )
    .addHelpText(
      "after",
      `
Examples:
  $ adreport report --dims campaign,date
  $ adreport report --from yesterday --to yesterday --dims campaign -o 'daily-{from}.csv'
  $ adreport report --from -30d --to today --metrics views,clicks --format ndjson | jq .metrics.views
  $ adreport report --from 2026-01-01 --to 2026-06-30 --dims ad,date --granularity week -o h1.json
  $ adreport report --from -30d --to today --dims campaign --spreadsheet -o campaigns.csv
  $ adreport report --dims campaign --metrics clicks,ctr,cpc --sort ctr --top 10
  $ adreport report --dims campaign,date --fill --fields date,name,clicks -o daily.csv
  $ adreport report --all-profiles --dims campaign -o 'campaigns-{profile}-{from}.csv'
  $ adreport report --profiles acme,globex --dims campaign --format ndjson > all.ndjson
  $ adreport report --from -7d --to yesterday --dims campaign,date --tz Europe/Berlin --compare previous
  $ adreport report --incremental --start 2026-01-01 --dims campaign,date -o 'out/{date}.csv' --dry-run

Ratios: ctr = clicks / views, cpc = spending / clicks, cpm = spending / views x 1000, cvr = conversions / clicks,
cpa = spending / conversions, each from summed counters; no value (empty, null, -) when the denominator is 0.
The table format holds every row before printing; html and chart hold sums per entity and date until the
end (they draw the top entities, known only then); csv, tsv, json and ndjson stream page by page. --sort
without --top holds every row too; --fill with json holds the report to count its rows.
--tz with date in --dims asks for hourly rows (24x a daily report's) and sums them into the zone's days,
weeks or months; --tz and --compare reports in JSON are held until their row count is known.
Plain CSV keeps every name as it is: open it in a spreadsheet program only if made with --spreadsheet.
With --profiles or --all-profiles, stderr ends with a table (profile, outcome, rows, time; with --quiet only
when an account failed); exit 6 when some accounts failed. Accounts that finish before the ones named
earlier wait in a temporary file, not in memory; json waits for every account before writing.`,
    );
}

export type ReportFlags = OptionsOf<typeof declareReport>;
