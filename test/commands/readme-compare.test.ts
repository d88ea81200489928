/**
 * The README's `--compare previous` recipe over `-30d`, run as printed against `serve demo`'s default data
 * (on 35 days, 75 of its 90 rows had empty `_prev` values, without a word), and the note a run gets when the
 * period it compares with lies before the service's first data. The demo keeps the default --days (what
 * is under test) with one ad per campaign and no keywords, so the test stays fast.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/run-cli-in-process";
import { serveDatabase } from "../helpers/serve";
import { tempDir } from "../helpers/temp";

const ROOT = join(import.meta.dirname, "..", "..");
const NOW = new Date("2026-11-20T06:00:00Z");
const FEW = ["--advertisers", "1", "--campaigns", "3", "--ads", "1", "--keywords", "0"];

/** The README's line, as printed there. */
function recipe(): string[] {
  const line = readFileSync(join(ROOT, "README.md"), "utf8")
    .split("\n")
    .find((l) => l.startsWith("adreport report ") && l.includes("--compare previous"));
  expect(line).toBeDefined();
  return (line as string)
    .replace(/\s+#.*$/, "")
    .split(/\s+/)
    .slice(1);
}

async function demo(extra: string[] = []) {
  const dir = tempDir();
  const db = join(dir, "demo.db");
  const made = await runInProcess(["serve", "demo", "--db", db, ...FEW, ...extra], { now: NOW });
  expect(made.code, made.stderr).toBe(0);
  const issue = ["serve", "key", "issue", "--db", db, "--advertiser", "Acme Outdoor", "--ip", "127.0.0.1"];
  const key = (await runInProcess(issue, { now: NOW })).stdout.trim();
  const { url } = await serveDatabase(db);
  const env = { ADREPORT_API_KEY: key, ADREPORT_BASE_URL: url, ADREPORT_CONFIG_DIR: join(dir, "config") };
  return (args: string[]) => runInProcess(args, { env, now: NOW, cwd: dir });
}

interface Row {
  metrics: Record<string, number | null>;
}

describe("the README's --compare previous recipe on the demo data", () => {
  it("has every compared row filled, both periods, and no note", async () => {
    const run = await demo();
    const result = await run([...recipe(), "--format", "json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    const rows = (JSON.parse(result.stdout) as { data: Row[] }).data;
    expect(rows).toHaveLength(90);
    // Each counter and its _prev (a ratio may be empty where its denominator is 0).
    const compared = (row: Row) =>
      Object.entries(row.metrics).filter(([name]) => name.endsWith("_prev") || `${name}_prev` in row.metrics);
    expect(compared(rows[0] as Row).length).toBeGreaterThanOrEqual(8);
    const empty = rows.filter((row) => compared(row).some(([, value]) => value === null));
    expect(empty).toHaveLength(0);
  });

  it("says once when the compared period lies before the first data", async () => {
    const run = await demo(["--days", "35"]);
    const partly = await run([...recipe(), "--format", "csv"]);
    expect(partly.code, partly.stderr).toBe(0);
    expect(partly.stderr).toBe(
      "adreport: the compared period 2026-09-21..2026-10-20 (Europe/Berlin) has no rows before 2026-10-16: the service's data may start there, so no _prev value before it is data\n",
    );
    const none = await run([
      "report",
      "--from",
      "-30d",
      "--to",
      "yesterday",
      "--dims",
      "campaign",
      "--compare",
      "year",
    ]);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stderr).toBe(
      "adreport: the compared period 2025-10-21..2025-11-19 (UTC) has no rows: it may lie before the service's first data, so no _prev value is data\n",
    );
  });
});
