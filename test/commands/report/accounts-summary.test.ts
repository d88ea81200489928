/**
 * One summary shape: `--summary json` over several accounts carries, per account, the fields of a single
 * run's summary (job, outcome, from, to, days written, changed and unchanged, requests...), so one parser
 * reads both. Against a real `serve`, incremental jobs into {profile}/{date} files.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { startTestService } from "../../helpers/serve";
import { tempDir } from "../../helpers/temp";

const service = await startTestService({
  keys: [
    { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
    { advertiser: "Globex, Inc.", ips: ["127.0.0.1"] },
  ],
});
const [ACME, GLOBEX] = service.keys as [string, string];
const NOW = new Date("2026-11-02T09:30:00Z");
const JOB = ["report", "--incremental", "--dims", "campaign,date", "-q", "--summary", "json"];

/** The fields a parser of one run's summary reads. */
const SINGLE_FIELDS = [
  "job",
  "outcome",
  "from",
  "to",
  "days_written",
  "days_changed",
  "days_unchanged",
  "rows",
  "requests",
  "retries",
  "throttled",
];

describe("--summary json over several accounts", () => {
  it("each account carries a single run's fields: its job id, outcome, days written, changed and unchanged", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "out"));
    const config = configDirWith(
      {},
      { acme: { "api-key": ACME, "base-url": service.url }, globex: { "api-key": GLOBEX, "base-url": service.url } },
    );
    const run = (args: string[], env: Record<string, string> = {}) =>
      runInProcess(args, { now: NOW, cwd, env: { ADREPORT_CONFIG_DIR: config, ...env } });
    const out = ["-o", "out/{profile}-{date}.csv"];
    const both = await run([...JOB, "--all-profiles", "--start", "2026-10-28", ...out]);
    expect(both.code, both.stderr).toBe(0);
    const summary = JSON.parse(both.stderr.trim().split("\n").at(-1) as string);
    expect(summary.outcome).toBe("ok");
    expect(summary.accounts).toHaveLength(2);
    for (const account of summary.accounts) {
      for (const field of SINGLE_FIELDS) expect(account, field).toHaveProperty(field);
      expect(account).toMatchObject({
        outcome: "ok",
        job: expect.stringMatching(/^[0-9a-f]{8}$/),
        from: "2026-10-28",
        to: "2026-11-01",
        days_written: 5,
        days_changed: 0,
        days_unchanged: 0,
        ms: expect.any(Number),
      });
      expect(account.requests).toBeGreaterThan(0);
    }
    // The same job run for one account alone gives the same fields, the same job id.
    const acme = summary.accounts.find((a: { profile: string }) => a.profile === "acme");
    const alone = await run([...JOB, "-o", "out/acme-{date}.csv"], { ADREPORT_PROFILE: "acme" });
    expect(alone.code, alone.stderr).toBe(0);
    const single = JSON.parse(alone.stderr.trim().split("\n").at(-1) as string);
    expect(Object.keys(single).sort()).toEqual([...SINGLE_FIELDS].sort());
    expect(single).toMatchObject({ job: acme.job, outcome: "ok", days_unchanged: 3, days_written: 0 });
  });

  it("an account that fails before its run began still carries the fields, its job unknown", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "out"));
    const config = configDirWith(
      {},
      { acme: { "api-key": ACME, "base-url": service.url }, nokey: { "base-url": service.url } },
    );
    const result = await runInProcess(
      [...JOB, "--all-profiles", "--start", "2026-10-30", "-o", "out/{profile}-{date}.csv"],
      {
        now: NOW,
        cwd,
        env: { ADREPORT_CONFIG_DIR: config },
      },
    );
    expect(result.code).toBe(6);
    const summary = JSON.parse(result.stderr.split("\n").find((line) => line.startsWith("{")) as string);
    expect(summary.outcome).toBe("partial");
    const nokey = summary.accounts.find((a: { profile: string }) => a.profile === "nokey");
    expect(nokey).toMatchObject({ outcome: "no key", job: null, requests: 0, rows: 0 });
    expect(nokey.error).toMatch(/no API key/);
  });
});
