/** The flags of `adreport verify`. */
import { type Command, Option } from "@commander-js/extra-typings";
import type { OptionsOf } from "../shared/declared";

export function declareVerify(program: Command) {
  return program
    .command("verify")
    .description(
      "check that a job's day files or table still hold what its ledger says it wrote; --repair writes the days that differ again",
    )
    .argument("[job]", "the job's id, as `adreport state list` shows it")
    .option("--state-file <file>", "the state of a job run with --state-file FILE")
    .option("--from <date>", "the first day to check (YYYY-MM-DD; default: the job's first)")
    .option("--to <date>", "the last day to check (YYYY-MM-DD; default: the job's last)")
    .option(
      "--against-service",
      "also ask the service for its daily totals (one request per 90 days) and name the days it now counts otherwise",
    )
    .option("--repair", "export the days that differ again through the job (its lock held), then verify again")
    .option(
      "--base-url <url>",
      "the service --against-service and --repair ask (default: the job's, refused when its profile now names another)",
    )
    .option(
      "--db <url>",
      "a PostgreSQL job's database URL with its password (the job remembers it without; else PGPASSWORD or ~/.pgpass)",
    )
    .addOption(
      new Option(
        "-f, --format <format>",
        "text (the default; json when -o ends in .json): a line a differing day; json: one document",
      ).choices(["text", "json"] as const),
    )
    .option(
      "-o, --output <file>",
      "write the result to FILE atomically (a device or named pipe directly, - for stdout); a postgres:// URL here is read as --db",
    )
    .option("-q, --quiet", "no progress on stderr while repairing")
    .addHelpText(
      "after",
      `
Exit codes: 0 when every day matches, 7 when any differs (after --repair: any still differs), 1 a database
that cannot be reached or read, a day file --repair cannot write (each named, the others repaired) or -o FILE
that cannot be written, 2 bad usage (a state file edited by hand, a job whose service moved: --base-url),
3 and 4 the key, 5 the service unavailable, 75 the job's lock held by a run under way.

Examples:
  $ adreport verify 3f9a01c2
  $ adreport verify 3f9a01c2 --against-service -f json -o verify.json
  $ adreport verify 3f9a01c2 --repair --from 2026-06-01`,
    );
}

export type VerifyOptions = OptionsOf<typeof declareVerify>;
