/**
 * `--lookback auto` against serve's restatement model (`serve demo --restate-seed`, its clock moved a day at
 * a time with `serve clock --advance 1d`): three weeks of daily runs of an hourly `ad,date` job, after which
 * every day file is what a fresh export of that day gives, while the model restated days up to 10 days back
 * and swapped conversions between ads of two campaigns (the day's totals kept).
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { serveInProcess } from "../../helpers/serve-in-process";
import { tempDir } from "../../helpers/temp";

const SMALL = ["--advertisers", "1", "--campaigns", "2", "--ads", "2", "--keywords", "0", "--activity", "0.5"];
const DAY_MS = 86_400_000;
const FIRST = Date.UTC(2026, 8, 1);
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe("report --lookback auto against serve's restatement model", () => {
  it("three weeks of daily runs leave every day file as a fresh export has it", async () => {
    const dir = tempDir();
    const db = join(dir, "model.db");
    const seeded = await runInProcess([
      "serve",
      "demo",
      "--db",
      db,
      ...SMALL,
      "--days",
      "60",
      "--end",
      "2026-10-01",
      "--restate-seed",
      "5",
      "--restate-horizon",
      "10d",
      "--clock",
      `${dayText(FIRST)}T06:00:00Z`,
    ]);
    expect(seeded.code, seeded.stderr).toBe(0);
    const key = (
      await runInProcess(["serve", "key", "issue", "--db", db, "--advertiser", "Acme Outdoor", "--ip", "127.0.0.1"])
    ).stdout.trim();
    const serve = await serveInProcess(["--db", db, "-q"]);
    const env = { ADREPORT_CONFIG_DIR: join(dir, "config"), ADREPORT_API_KEY: key, ADREPORT_BASE_URL: serve.url };
    mkdirSync(join(dir, "out"));
    const job = [
      "report",
      "--dims",
      "ad,date",
      "--granularity",
      "hour",
      "-o",
      "out/{date}.csv",
      "--incremental",
      "--lookback",
      "auto",
      "--page-size",
      "100",
    ];
    const at = (i: number) => new Date(FIRST + i * DAY_MS + 6 * 3_600_000);
    const first = await runInProcess([...job, "--start", dayText(FIRST - 10 * DAY_MS)], { env, cwd: dir, now: at(0) });
    expect(first.code, first.stderr).toBe(0);
    for (let i = 1; i <= 21; i += 1) {
      const moved = await runInProcess(["serve", "clock", "--db", db, "--advance", "1d"]);
      expect(moved.code, moved.stderr).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 300)); // serve looks at its clock every 0.25 s
      const daily = await runInProcess(job, { env, cwd: dir, now: at(i) });
      expect(daily.code, daily.stderr).toBe(0);
    }
    const folder = join(dir, "config", "state");
    const state = JSON.parse(
      readFileSync(join(folder, readdirSync(folder).find((n) => /^[0-9a-f]{8}\.json$/.test(n)) as string), "utf8"),
    );
    const reasons = state.autoLookback.decisions.flatMap((d: { refetched: Array<{ why: string }> }) =>
      d.refetched.map((r) => r.why),
    );
    expect(reasons.some((why: string) => why.startsWith("totals moved"))).toBe(true);
    expect(reasons).toContain("rows moved between campaigns, totals the same");
    expect(state.autoLookback.learnedHorizonDays).toBeGreaterThan(3);
    const fresh = join(dir, "fresh");
    mkdirSync(fresh);
    const from = dayText(FIRST - 10 * DAY_MS);
    const to = dayText(FIRST + 20 * DAY_MS);
    const plain = await runInProcess(
      ["report", "--dims", "ad,date", "--granularity", "hour", "--from", from, "--to", to, "-o", "fresh/{date}.csv"],
      { env: { ...env, ADREPORT_CONFIG_DIR: join(dir, "other-config") }, cwd: dir, now: at(22) },
    );
    expect(plain.code, plain.stderr).toBe(0);
    const files = readdirSync(join(dir, "out")).filter((n) => n.endsWith(".csv"));
    expect(files).toHaveLength(31);
    for (const name of files) {
      expect(readFileSync(join(dir, "out", name), "utf8"), name).toBe(readFileSync(join(fresh, name), "utf8"));
    }
  });
});
