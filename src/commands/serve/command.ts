/**
 * `adreport serve`: the reporting service from a SQLite file, and the operator verbs that write that file.
 * Each action imports its verb's module (and with it fastify and SQLite) only when it runs, so
 * `adreport --help` loads neither. The options each action receives are typed from these declarations.
 */
import type { Command } from "@commander-js/extra-typings";
import type { Context } from "../context";
import { collect, fractionOption, integerOption, secondsOption } from "../shared/parse";
import { dbOption } from "./db-option";
import { registerKeyVerbs } from "./key-verbs";

export function registerServe(program: Command, ctx: Context): void {
  const serve = program
    .command("serve")
    .description(
      "run an instance of the reporting service from a SQLite file or PostgreSQL, and manage its data and keys",
    )
    .addHelpText(
      "after",
      `
A session:
  $ adreport serve init --db local.db
  $ adreport serve demo --db local.db              # or: adreport serve load --db local.db stats.ndjson
  $ adreport serve key issue --db local.db --advertiser "Acme Outdoor" --ip 127.0.0.1
  $ adreport serve --db local.db --port 8080       # serves until Ctrl-C
  $ curl -H "Authorization: Bearer $KEY" "http://127.0.0.1:8080/v1/report?from=2026-10-01&to=2026-10-31&metrics=views,clicks"`,
    );

  dbOption(
    serve
      .command("start", { isDefault: true })
      .description("serve GET /v1/report (the default: `adreport serve --db x` runs this)")
      .option("--host <address>", "address to listen on", "127.0.0.1")
      .option("--port <n>", "port to listen on; 0 picks a free one", integerOption(0, 65_535), 8080)
      .option("--trust-proxy <ip,...>", "believe X-Forwarded-For only from these peers", collect)
      .option(
        "--cors <origin>",
        "let pages from this origin (https://app.example.com) call the service from a browser (repeatable)",
        collect,
      )
      .option(
        "--cache-mb <n>",
        "megabytes the caches of computed reports and pages may hold, keys and per-entry overhead counted",
        integerOption(0, 1_000_000),
        64,
      )
      .option(
        "--cache-rows <n>",
        "rows of reports without an entity kept in memory for paging (entity reports keep a page map), within --cache-mb",
        integerOption(0),
        2_000_000,
      )
      .option(
        "--max-connections <n>",
        "connections open at once; more are refused, with a line in the log",
        integerOption(1, 1_000_000),
        4096,
      )
      .option(
        "--header-timeout <seconds>",
        "time a request may take to send its headers before a 408",
        secondsOption(0.01, 3600),
        10,
      )
      .option(
        "--auth-failure-limit <n>",
        "failed authentications a minute from one address before it gets 429 for a minute; 0: no limit",
        integerOption(0),
        20,
      )
      .option(
        "--rate-limit <rate>",
        "requests a key may make, N/s or N/min: a token bucket of N refilled N a second or minute; past it, 429 (default: none)",
      )
      .option(
        "--rate-limit-headers <mode>",
        "with --rate-limit: ietf (the default) sends the RateLimit and RateLimit-Policy headers, none does not",
      )
      .option(
        "--shutdown-timeout <seconds>",
        "on SIGINT/SIGTERM, time given to requests in flight before every connection is closed",
        secondsOption(0, 3600),
        10,
      )
      .option(
        "--faults <spec>",
        "inject failures, e.g. 500:0.2,429:every3,drop:0.1,delay:50ms,reset-body:0.1,hang:every5 (docs/serve.md)",
      )
      .option("--faults-seed <n>", "seed of the random choices of --faults", integerOption(0, 2 ** 32 - 1), 1)
      .option(
        "--db-pool <n>",
        "with a postgres:// --db: connections to the database at most",
        integerOption(1, 1000),
        10,
      )
      .option("-q, --quiet", "no access log"),
    ctx,
  ).action(async (options) => (await import("./start")).runServe(ctx, options));

  dbOption(serve.command("init").description("create an empty database (does nothing to one that exists)"), ctx).action(
    async (options) => (await import("./init")).runInit(ctx, options),
  );

  dbOption(
    serve
      .command("upgrade")
      .description("bring a database made by an older adreport to this one's layout, in place, in one transaction"),
    ctx,
  ).action(async (options) => (await import("./upgrade")).runUpgrade(ctx, options));

  dbOption(
    serve
      .command("load")
      .description(
        "load hourly statistics from NDJSON files, or an adreport export; each file loads whole or not at all",
      )
      .argument("[files...]", "NDJSON files (one hour of one ad or keyword a line)")
      .option(
        "--from-export <file>",
        "an NDJSON export of `adreport report` with date and campaign or ad among its dimensions",
      )
      .option("--advertiser <name>", "with --from-export: the advertiser its rows belong to (default Imported)")
      .option(
        "--granularity <word>",
        "with --from-export: hour or day, when the dates cannot tell day from week or month",
      ),
    ctx,
  ).action(async (files, options) => (await import("./load-from-export")).runLoadVerb(ctx, files, options));

  dbOption(
    serve
      .command("demo")
      .description("generate the deterministic demo data set (creates the database if needed)")
      .option("--seed <n>", "random seed", integerOption(0, 2 ** 32 - 1), 42)
      .option(
        "--days <n>",
        "days of hourly data; the default, a year and a month, lets --compare previous and year over the last 30 days find data",
        integerOption(1, 3660),
        400,
      )
      .option(
        "--end <date>",
        "the day after the data (YYYY-MM-DD); default today (UTC), so the data ends with yesterday. The same --seed, --days and --end give the same data; made on another day, every day's values differ",
      )
      .option("--advertisers <n>", "advertisers", integerOption(1, 1000), 3)
      .option("--campaigns <n>", "campaigns per advertiser", integerOption(1, 10_000), 3)
      .option("--ads <n>", "ads per campaign", integerOption(1, 10_000), 3)
      .option("--keywords <n>", "keywords per ad", integerOption(0, 100), 2)
      .option("--activity <share>", "share of hours that carry data, 0..1", fractionOption, 0.7)
      .option("--ndjson <file>", "write the data as NDJSON (- for stdout) instead of into the database")
      .option(
        "--restate-seed <n>",
        "also seed the restatement model with this seed: days keep changing after they end, as `serve restate` makes them",
        integerOption(0, 2 ** 32 - 1),
      )
      .option(
        "--restate-horizon <days>",
        "with --restate-seed: days after its end a day may still change (default 30d)",
      )
      .option(
        "--restate-deletions <n>",
        "with --restate-seed: ads deleted within the data's last 90 days (default: one in 20 ads, at least one)",
        integerOption(0, 1_000_000),
      )
      .option(
        "--clock <date-time>",
        "with --restate-seed: the service's clock to start at (YYYY-MM-DD or a date-time; default --end): later hours do not exist yet",
      ),
    ctx,
  ).action(async (options) => (await import("./demo")).runDemo(ctx, options));

  dbOption(
    serve
      .command("restate")
      .description(
        "seed the restatement model on a database: each day's counts keep changing up to a horizon after it, a few ads are deleted, and a clock says when it is (docs/serve.md)",
      )
      .option("--seed <n>", "random seed of the model (default 1)", integerOption(0, 2 ** 32 - 1))
      .option("--horizon <days>", "days after its end a day may still change, 1d to 365d (default 30d)")
      .option("--clock <date-time>", "the clock to start at (default: midnight after the data's last hour)")
      .option(
        "--deletions <n>",
        "ads deleted within the data's last 90 days (default: one in 20 ads, at least one)",
        integerOption(0, 1_000_000),
      )
      .option("--off", "take the model off: the data as loaded again, every hour of it"),
    ctx,
  ).action(async (options) => (await import("./restate")).runRestate(ctx, options));

  dbOption(
    serve
      .command("clock")
      .description(
        "show, set or advance the restatement model's clock; every serve of the database answers at it within 0.25 s",
      )
      .option("--set <date-time>", "set the clock (YYYY-MM-DD for its midnight UTC, or a date-time), back or forward")
      .option("--advance <step>", "move the clock forward by 1d, 6h, 30m, ..."),
    ctx,
  ).action(async (options) => (await import("./clock")).runClock(ctx, options));

  serve
    .command("openapi")
    .description("print the OpenAPI 3.1 document of GET /v1/report (serve answers it at GET /openapi.json)")
    .action(async () => (await import("./openapi")).runOpenApi(ctx));

  serve
    .command("replay")
    .description(
      "answer the requests of a recording (report --record DIR) exactly as recorded; any other request gets a 404 naming the nearest recorded one",
    )
    .argument("<dir>", "the recording's folder")
    .option("--host <address>", "address to listen on", "127.0.0.1")
    .option("--port <n>", "port to listen on; 0 picks a free one", integerOption(0, 65_535), 8080)
    .option("-q, --quiet", "no log line per request")
    .action(async (dir, options) => (await import("./replay")).runReplay(ctx, dir, options));

  registerKeyVerbs(serve, ctx);
}
