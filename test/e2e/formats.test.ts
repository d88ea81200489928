/**
 * What a real terminal shows of the formats (the real CLI on a pseudo-terminal): names an advertiser typed,
 * with control sequences, shown and never obeyed; colour decided by the stream written to. The other format
 * cases run in this process: test/commands/report/formats.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BEL, ESC, startNamesService } from "../helpers/names";
import { runOnTerminal } from "../helpers/pty";
import { tempDir } from "../helpers/temp";

const dir = tempDir();
const service = await startNamesService();
const RANGE = ["--from", "2026-10-01", "--to", "2026-10-31"];
const BOLD = `${ESC}[1m`;

/** No colour settings of the developer's own leak in: each test says what it wants. */
const BASE_ENV = {
  ADREPORT_CONFIG_DIR: join(dir, "config"),
  ADREPORT_API_KEY: service.key,
  ADREPORT_BASE_URL: service.url,
  NO_COLOR: undefined,
  FORCE_COLOR: undefined,
  TERM: "xterm-256color",
};

/** The CLI on a pseudo-terminal 200 columns wide (stdout and stderr both terminals). */
function onTerminal(args: string[], env: Record<string, string | undefined> = {}) {
  return runOnTerminal(["report", ...RANGE, ...args], 200, { ...BASE_ENV, ...env });
}

describe.concurrent("names on a real terminal are shown, never obeyed", () => {
  it("no colour change, no window title", async () => {
    const { screen, code } = await onTerminal(["--dims", "campaign"]);
    expect(code).toBe(0);
    expect(screen).toContain("\\x1b[31mRED");
    expect(screen).not.toContain(`${ESC}[31m`);
    expect(screen).not.toContain(`${ESC}]0;`);
    expect(screen).not.toContain(BEL);
  });
});

describe.concurrent("colour is decided by the stream written to", () => {
  it("a table file written from a terminal has no colour, while the terminal's table has", {
    tags: ["binary"],
  }, async () => {
    const file = join(dir, "typed-at-a-terminal.txt");
    const { code } = await onTerminal(["--dims", "campaign", "-o", file]);
    expect(code).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(text).toContain("campaign_id");
    expect(text).not.toContain(ESC);
    expect((await onTerminal(["--dims", "campaign"])).screen).toContain(`${BOLD}campaign_id`);
  });

  it("NO_COLOR and FORCE_COLOR=0 turn it off on a terminal (in a pipe: test/commands/report/formats.test.ts)", async () => {
    expect((await onTerminal(["--dims", "campaign"], { NO_COLOR: "1" })).screen).not.toContain(BOLD);
    expect((await onTerminal(["--dims", "campaign"], { FORCE_COLOR: "0" })).screen).not.toContain(BOLD);
  });
});
