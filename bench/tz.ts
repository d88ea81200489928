/**
 * `report --tz` and `--compare` (issue 17) against a local `serve` of the 5,000-ad data set (100 campaigns): what summing
 * hourly rows into local days costs against a plain export of those same hourly rows, in time and in peak
 * memory (the stages stream, so the peak should stay where the hourly export's is).
 */
import { BIG_DB, ensureBigDb, issueBenchKey } from "./data";
import { BIN, ensureBuilt, figure, measureCommand, median } from "./lib";
import { startServe } from "./serve-process";

export async function benchTz(): Promise<void> {
  ensureBuilt();
  ensureBigDb();
  const key = issueBenchKey();
  const server = await startServe(BIG_DB, ["--header-timeout", "120"]);
  const env = {
    ADREPORT_API_KEY: key,
    ADREPORT_BASE_URL: server.url,
    ADREPORT_CONFIG_DIR: "/nonexistent-adreport-bench",
  };
  // By campaign (100 of them): 74k hourly rows a month, so the figures are adreport's work, not the service's.
  const common = ["report", "--dims", "campaign,date", "--format", "csv", "-q"];
  // The same hours both ways: Berlin's days 2026-10-01 to 2026-10-31 are 2026-09-30T22:00Z to 2026-10-31T22:59:59Z.
  const cases: Array<[string, string[]]> = [
    [
      "hourly UTC CSV, the same hours (baseline)",
      ["--from", "2026-09-30T22:00:00Z", "--to", "2026-10-31T22:59:59Z", "--granularity", "hour"],
    ],
    ["--tz Europe/Berlin, days of October", ["--from", "2026-10-01", "--to", "2026-10-31", "--tz", "Europe/Berlin"]],
    [
      "--tz Europe/Berlin --compare previous, 2 x 15 days",
      ["--from", "2026-10-17", "--to", "2026-10-31", "--tz", "Europe/Berlin", "--compare", "previous"],
    ],
  ];
  try {
    const results: Array<{ seconds: number; peakMb: number }> = [];
    for (const [label, args] of cases) {
      measureCommand(process.execPath, [BIN, ...common, ...args], env); // warm the service's caches
      const runs = [0, 1, 2].map(() => measureCommand(process.execPath, [BIN, ...common, ...args], env));
      const result = { seconds: median(runs.map((r) => r.seconds)), peakMb: median(runs.map((r) => r.peakMb)) };
      results.push(result);
      const base = results[0] as { seconds: number; peakMb: number };
      const ratios =
        results.length === 1
          ? ""
          : `  time ${(result.seconds / base.seconds).toFixed(2)}x, RSS ${(result.peakMb / base.peakMb).toFixed(2)}x`;
      figure(
        `${label} (median of 3)`,
        `${result.seconds.toFixed(1)} s, ${result.peakMb.toFixed(0)} MB${ratios}`,
        results.length === 1 ? undefined : result.peakMb / base.peakMb <= 1.1,
      );
    }
  } finally {
    await server.stop();
  }
}
