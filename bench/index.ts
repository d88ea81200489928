/** `npm run bench [name...]`: runs the named benchmarks, or all of them. Figures are ratios within one run. */

import { benchAccounts } from "./accounts";
import { benchColumnar } from "./columnar";
import { benchDuckdb } from "./duckdb";
import { benchFleet } from "./fleet";
import { benchGuard } from "./guard";
import { benchLookback } from "./lookback";
import { benchPace } from "./pace";
import { benchPictures } from "./pictures";
import { benchRateLimits } from "./rate-limits";
import { benchReport } from "./report";
import { benchReportTop } from "./report-top";
import { benchRestate } from "./restate";
import { benchServe } from "./serve";
import { benchServeAbuse } from "./serve-abuse";
import { benchServePostgres } from "./serve-postgres";
import { benchServeSeek } from "./serve-seek";
import { benchStartup } from "./startup";
import { benchStateDb } from "./state-db";
import { benchTargets } from "./targets";
import { benchTelemetry } from "./telemetry";
import { benchTz } from "./tz";
import { benchVerify } from "./verify";

const benchmarks: Record<string, () => void | Promise<void>> = {
  startup: () => benchStartup(),
  serve: () => benchServe(),
  report: () => benchReport(),
  "report-top": () => benchReportTop(),
  "serve-abuse": () => benchServeAbuse(),
  "serve-seek": () => benchServeSeek(),
  pictures: () => benchPictures(),
  accounts: () => benchAccounts(),
  fleet: () => benchFleet(),
  tz: () => benchTz(),
  targets: () => benchTargets(),
  columnar: () => benchColumnar(),
  duckdb: () => benchDuckdb(),
  "serve-postgres": () => benchServePostgres(),
  pace: () => benchPace(),
  "rate-limits": () => benchRateLimits(),
  verify: () => benchVerify(),
  telemetry: () => benchTelemetry(),
  guard: () => benchGuard(),
  lookback: () => benchLookback(),
  restate: () => benchRestate(),
  "state-db": () => benchStateDb(),
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(", ")}; choose from ${Object.keys(benchmarks).join(", ")}`);
  process.exit(2);
}
async function main(): Promise<void> {
  // The guard repeats the others in small: run by name only.
  for (const name of wanted.length > 0 ? wanted : Object.keys(benchmarks).filter((n) => n !== "guard")) {
    console.log(`\n# ${name}`);
    await benchmarks[name]?.();
  }
}

void main();
