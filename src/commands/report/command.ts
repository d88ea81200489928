/** `adreport report`: flags only. The behaviour, and the libraries it needs, load from run.ts. */
import { type Command, Option } from "@commander-js/extra-typings";
import { DIMENSIONS, METRICS } from "../../contract/fields";
import { FORMAT_NAMES } from "../../core/formats";
import type { Context } from "../context";
import type { OptionsOf } from "../shared/declared";

function declareReport(program: Command) {
  return program
    .command("report")
    .description("pull a report, every page of it, and export it as a table, CSV, TSV, JSON or NDJSON")
    .option(
      "--from <when>",
      'start: today, yesterday, -Nd, YYYY-MM-DD or an ISO 8601 date-time (UTC); the default range is the last 7 complete UTC days (default: "-7d")',
    )
    .option("--to <when>", 'end, inclusive: same forms; a date means its last second (default: "yesterday")')
    .option("--metrics <list>", `comma list of ${METRICS.join(", ")} (default: all the dimensions allow)`)
    .option(
      "--dims, --dimensions <list>",
      `comma list of ${DIMENSIONS.join(", ")}: at most one entity, keyword not with date`,
    )
    .option("--granularity <unit>", "date buckets: hour, day, week, month (default day)")
    .option("--campaign <id>", "only this campaign")
    .option("--ad <id>", "only this ad")
    .addOption(
      new Option("-f, --format <format>", "output format (default: table on a terminal, else csv)").choices(
        FORMAT_NAMES,
      ),
    )
    .option(
      "-o, --output <file>",
      "write to FILE atomically (a device or named pipe directly, - for stdout); {from} and {to} become YYYY-MM-DD; {date} writes one file per date bucket; sqlite:PATH or postgres://USER@HOST:PORT/DB fill a table; the ending picks the format",
    )
    .option("--page-size <n>", "rows to ask for per page (default 1000)")
    .option("--concurrency <n>", "pages fetched at once (default 4)")
    .option("--timeout <duration>", "per request: 30s, 500ms, 2m (default 30s)")
    .option("--retries <n>", "retries after network errors, timeouts, 429 and 5xx (default 4)")
    .option("--max-time <duration>", "give up on the whole export after this long: 10m, 1h (default none)")
    .option(
      "--incremental",
      "export the days after the last one this job exported, and --lookback days before it, up to yesterday (UTC); needs -o with {date} or a database target",
    )
    .option(
      "--lookback <days>",
      "with --incremental: days fetched again each run for restated data: 3d, 0d (default 3d)",
    )
    .option("--start <date>", "with --incremental: the first day of the first run (YYYY-MM-DD, UTC)")
    .option("--state-file <file>", "with --incremental: keep the job's state in FILE, not in the config folder")
    .option("--table <name>", "database target: the table to fill (default adreport_<dimensions>)")
    .addOption(
      new Option("--summary <format>", "print the run's outcome as one JSON object on stderr").choices(["json"]),
    )
    .option("--summary-file <file>", "write the --summary JSON to FILE (atomically) instead of stderr")
    .option("--base-url <url>", "the service (env ADREPORT_BASE_URL)")
    .option("--profile <name>", "the profile whose key and settings to use (env ADREPORT_PROFILE)")
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
    .addHelpText(
      "after",
      `
Examples:
  $ adreport report --dims campaign,date
  $ adreport report --from yesterday --to yesterday --dims campaign -o 'daily-{from}.csv'
  $ adreport report --from -30d --to today --metrics views,clicks --format ndjson | jq .metrics.views
  $ adreport report --from 2026-01-01 --to 2026-06-30 --dims ad,date --granularity week -o h1.json
  $ adreport report --from -30d --to today --dims campaign --spreadsheet -o campaigns.csv

The table format holds every row before printing; csv, tsv, json and ndjson stream page by page.
Plain CSV keeps every name as it is: open it in a spreadsheet program only if made with --spreadsheet.`,
    );
}

export type ReportFlags = OptionsOf<typeof declareReport>;

export function registerReport(program: Command, ctx: Context): void {
  declareReport(program).action(async (flags) => (await import("./run")).runReport(ctx, flags));
}
