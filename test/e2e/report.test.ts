/**
 * What only a process shows of `adreport report`: the reader of its stdout pipe leaving (| head), Ctrl-C as
 * a signal to the process, a real terminal; and two end-to-end cases that keep the report family proven in
 * the single binary. The service runs in this test process (a real server on 127.0.0.1). Every other report
 * case runs in this process too: test/commands/report/export.test.ts.
 */

import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ACME_KEY, startDemoService } from "../helpers/demo-service";
import { startFakeService } from "../helpers/fake-service";
import { runOnTerminal } from "../helpers/pty";
import { referenceRows } from "../helpers/reference";
import { type CliResult, cliCommand, runCli } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const {
  service,
  dir,
  env: ENV,
} = await startDemoService({ keys: [ACME_KEY, { advertiser: "Acme Outdoor", ips: ["192.0.2.1"] }] });
const _configDir = ENV.ADREPORT_CONFIG_DIR;
const [KEY, ELSEWHERE_KEY] = service.keys as [string, string];

const outputs: CliResult[] = [];
async function report(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const result = await runCli(["report", ...args], { env: { ...ENV, ...env } });
  outputs.push(result);
  return result;
}

afterAll(() => {
  // No key may ever reach stdout or stderr.
  for (const output of outputs) {
    for (const key of [KEY, ELSEWHERE_KEY]) {
      expect(output.stdout).not.toContain(key.slice(4));
      expect(output.stderr).not.toContain(key.slice(4));
    }
  }
});

// Each case is its own process (the held service of the Ctrl-C case its own too): they run side by side.
describe.concurrent("the single binary (or bin/adreport) end to end", () => {
  it("exports NDJSON rows exactly as the reference computes them", { tags: ["binary"] }, async () => {
    const result = await report([
      "--from",
      "2026-10-01",
      "--to",
      "2026-10-31",
      "--dims",
      "campaign,date",
      "--format",
      "ndjson",
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const rows = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rows).toEqual(
      referenceRows(service.lines, {
        advertiser: "Acme Outdoor",
        fromMs: Date.UTC(2026, 9, 1),
        toMs: Date.UTC(2026, 9, 31, 23, 59, 59),
        metrics: ["views", "spending", "clicks", "conversions"],
        entity: "campaign",
        byDate: true,
        granularity: "day",
      }),
    );
  });

  it("4 with the operator request to make, when this host is not whitelisted", async () => {
    const result = await report([], { ADREPORT_API_KEY: ELSEWHERE_KEY });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("127.0.0.1");
    expect(result.stderr).toContain("hint: ");
    expect(result.stderr).toContain("adreport keys request add-ip");
  });
});

describe.concurrent("pipelines", () => {
  it("ends quietly with exit 0 when the reader closes the pipe (| head)", async () => {
    const command = cliCommand([]).join(" ");
    const child = spawn(
      "bash",
      [
        "-c",
        `set -o pipefail; ${command} report --from 2026-10-01 --to 2026-10-31 --dims ad,date --granularity hour --format ndjson --page-size 50 | head -n 1`,
      ],
      { env: { ...process.env, ...ENV } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(1);
  });
});

describe.concurrent("interrupted", () => {
  it("by Ctrl-C, ends with 130, leaves the old file as it was and no temporary file", { tags: ["binary"] }, async ({
    expect,
  }) => {
    // Page 1 is answered, every later page held unanswered: the export is under way until the signal.
    const held = await startFakeService({ rows: 50, fault: (r) => (r.page > 1 ? "hang" : undefined) });
    const out = join(dir, "interrupted");
    mkdirSync(out);
    const target = join(out, "report.csv");
    writeFileSync(target, "old content\n");
    const [command, args] = cliCommand([
      "report",
      "--from",
      "2026-10-01",
      "--to",
      "2026-10-31",
      "--dims",
      "campaign",
      "--page-size",
      "10",
      "--timeout",
      "60s",
      "-o",
      target,
    ]);
    const child = spawn(command, args, { env: { ...process.env, ...ENV, ADREPORT_BASE_URL: held.url } });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    const closed = new Promise((resolve) => child.on("close", resolve));
    try {
      // The observable event: the temporary file beside the target, and a request for a later page held.
      await expect
        .poll(() => readdirSync(out).some((f) => f.endsWith(".tmp")) && (held.requests.get(2) ?? 0) > 0, {
          timeout: 20_000,
        })
        .toBe(true);
      child.kill("SIGINT");
      expect(await closed).toBe(130);
      expect(stderr).toContain("interrupted");
      expect(readFileSync(target, "utf8")).toBe("old content\n");
      expect(readdirSync(out)).toEqual(["report.csv"]);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe.concurrent("on a terminal", () => {
  const onTerminal = (columns: number, args: string[]) => runOnTerminal(["report", ...args], columns, ENV);

  it("prints a table, with a progress spinner on stderr that is gone at the end", { tags: ["binary"] }, async () => {
    const { screen, code } = await onTerminal(100, [
      "--from",
      "2026-10-25",
      "--to",
      "2026-10-31",
      "--dims",
      "campaign",
    ]);
    expect(code).toBe(0);
    expect(screen).toContain("campaign_id");
    expect(screen).toContain("total (2 rows)");
    // The spinner is cleared before the table is printed, and draws nothing after it.
    expect(screen.slice(screen.indexOf("┌"))).not.toContain("rows\u001b");
    expect(screen.slice(screen.indexOf("└"))).not.toContain("page");
  });

  // issue 35: `-o FILE` said nothing on success; on a terminal it says what it wrote, after the spinner.
  it("-o FILE ends with the rows it wrote, the spinner cleared before; -q says nothing", async () => {
    const file = join(tempDir("adreport-wrote-"), "week.csv");
    const args = ["--from", "2026-10-25", "--to", "2026-10-31", "--dims", "campaign", "-o", file];
    const { screen, code } = await onTerminal(100, args);
    expect(code).toBe(0);
    expect(readFileSync(file, "utf8").trimEnd().split("\n")).toHaveLength(3);
    expect(screen).toContain(`adreport: wrote 2 rows to ${file}`);
    expect(screen.slice(screen.indexOf("adreport: wrote"))).not.toContain("page");
    const quiet = await onTerminal(100, [...args, "-q"]);
    expect(quiet.code).toBe(0);
    expect(quiet.screen).not.toContain("wrote");
  });

  it("does not hang on a terminal that reports no width", async () => {
    const { code, screen } = await onTerminal(0, ["--from", "2026-10-25", "--to", "2026-10-31", "--dims", "campaign"]);
    expect(code).toBe(0);
    expect(screen).toContain("total (2 rows)");
  });
});
