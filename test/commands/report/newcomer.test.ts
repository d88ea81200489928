/**
 * What a newcomer tripped over (issue 35), against a serve with the demo data: the spreadsheet setting
 * shapes CSV files only, never what a pipeline reads on stdout; JSON's meta says the range asked for; an
 * `-o FILE` export says what it wrote on a terminal, and nothing with -q or into a log.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { makeFifo, pipeReader } from "../../helpers/sinks";
import { tempDir } from "../../helpers/temp";

const { dir, env: ENV } = await startDemoService();
const RANGE = ["--from", "2026-10-01", "--to", "2026-10-07"];
const BOM = "\uFEFF";

function run(args: readonly string[], options: { env?: Record<string, string>; errIsTTY?: boolean } = {}) {
  return runInProcess(args, { env: { ...ENV, ...options.env }, cwd: dir, errIsTTY: options.errIsTTY ?? false });
}

describe("`config set spreadsheet true`", async () => {
  const config = { ADREPORT_CONFIG_DIR: join(tempDir(), "config") };
  const set = await run(["config", "set", "spreadsheet", "true"], { env: config });
  const report = (args: readonly string[]) =>
    run(["report", ...RANGE, "--dims", "campaign", "-q", ...args], { env: config });

  it("leaves CSV on stdout as a pipeline reads it: no byte-order mark, LF, names as sent", async () => {
    expect(set.code, set.stderr).toBe(0);
    const result = await report(["--format", "csv"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.startsWith(BOM)).toBe(false);
    expect(result.stdout).not.toContain("\r\n");
    expect(result.stdout.split("\n")[0]).toBe("campaign_id,name,views,spending,clicks,conversions");
  });

  it("shapes a CSV file (-o FILE) for a spreadsheet", async () => {
    const result = await report(["-o", "sheet.csv"]);
    expect(result.code, result.stderr).toBe(0);
    const file = readFileSync(join(dir, "sheet.csv"), "utf8");
    expect(file.startsWith(BOM)).toBe(true);
    expect(file).toContain("\r\n");
  });

  it("leaves CSV into a named pipe (-o FIFO) as a pipeline reads it", async () => {
    const fifo = makeFifo();
    const reader = pipeReader(fifo, ["cat"]);
    try {
      const result = await report(["--format", "csv", "-o", fifo]);
      expect(result.code, result.stderr).toBe(0);
      const read = await reader.output;
      expect(read.startsWith(BOM)).toBe(false);
      expect(read).not.toContain("\r\n");
    } finally {
      reader.child.kill();
    }
  });

  it("--spreadsheet still shapes stdout where it is given; --no-spreadsheet keeps a file plain", async () => {
    const flagged = await report(["--spreadsheet"]);
    expect(flagged.stdout.startsWith(BOM)).toBe(true);
    expect(flagged.stdout).toContain("\r\n");
    const plain = await report(["--no-spreadsheet", "-o", "plain.csv"]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(readFileSync(join(dir, "plain.csv"), "utf8").startsWith(BOM)).toBe(false);
  });
});

describe("--format json", () => {
  it("meta holds the range asked for, as the service was asked (ISO 8601)", async () => {
    const result = await run(["report", ...RANGE, "--dims", "campaign", "--format", "json", "-q"]);
    expect(result.code, result.stderr).toBe(0);
    const { meta } = JSON.parse(result.stdout) as { meta: Record<string, unknown> };
    expect(meta).toMatchObject({ from: "2026-10-01T00:00:00Z", to: "2026-10-07T23:59:59Z" });
    expect(Object.keys(meta)).toEqual(["granularity", "dimensions", "metrics", "total", "from", "to"]);
  });

  it("with --tz, the instants of that zone's days", async () => {
    const result = await run(["report", ...RANGE, "--dims", "campaign", "--tz", "Asia/Tokyo", "-f", "json", "-q"]);
    expect(result.code, result.stderr).toBe(0);
    const { meta } = JSON.parse(result.stdout) as { meta: Record<string, unknown> };
    expect(meta).toMatchObject({ from: "2026-09-30T15:00:00Z", to: "2026-10-07T14:59:59Z" });
  });
});

describe("-o FILE on a terminal", () => {
  const args = ["report", ...RANGE, "--dims", "campaign,date", "-o", "out.csv"];

  it("says what it wrote on stderr", async () => {
    const result = await run(args, { errIsTTY: true });
    // The spinner's frames come before it; the line is the last thing said.
    expect(result.code, result.stderr).toBe(0);
    const rows = readFileSync(join(dir, "out.csv"), "utf8").trimEnd().split("\n").length - 1;
    expect(rows).toBeGreaterThan(1);
    expect(result.stderr).toMatch(new RegExp(`(^|\n)adreport: wrote ${rows} rows to out\\.csv\n$`));
  });

  it("says nothing with -q, nor when stderr is no terminal, nor for stdout", async () => {
    expect((await run([...args, "-q"], { errIsTTY: true })).stderr).toBe("");
    expect((await run(args)).stderr).toBe("");
    const stdout = await run(["report", ...RANGE, "--dims", "campaign", "-f", "csv"], { errIsTTY: true });
    expect(stdout.stderr).not.toContain("wrote");
  });

  it("counts one row as a row", async () => {
    const result = await run(["report", ...RANGE, "-o", "total.json"], { errIsTTY: true });
    expect(result.stderr).toMatch(/(^|\n)adreport: wrote 1 row to total\.json\n$/);
  });
});
