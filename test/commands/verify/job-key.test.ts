/**
 * Whose key `verify --against-service` and `--repair` send for a job: the job's own profile's, or for a job of
 * no profile (made with ADREPORT_API_KEY) a key of no profile, never the default profile's or
 * ADREPORT_PROFILE's, whose totals and rows are another account's. What the settings set aside is said once.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { startTestService } from "../../helpers/serve";
import type { CliResult } from "../../helpers/spawn-cli";
import { tempDir } from "../../helpers/temp";

const service = await startTestService({
  keys: [
    { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
    { advertiser: "Globex, Inc.", ips: ["127.0.0.1"] },
  ],
});
const [ACME, GLOBEX] = service.keys as [string, string];

async function run(args: string[], cwd: string, env: Record<string, string | undefined>): Promise<CliResult> {
  const result = await runInProcess(args, { now: new Date("2026-11-02T09:30:00Z"), env, cwd });
  for (const key of service.keys) expect(result.stdout + result.stderr).not.toContain(key.slice(4));
  return result;
}

async function jobOf(cwd: string, env: Record<string, string | undefined>): Promise<string> {
  const list = await run(["state", "list", "--format", "json"], cwd, env);
  return (JSON.parse(list.stdout) as [{ job: string }])[0].job;
}

const JOB = ["report", "--dims", "campaign,date", "--incremental", "--start", "2026-10-20", "-o", "sqlite:ag.db"];

describe("verify: the key a job's days are asked with", () => {
  it("a job of no profile is not asked with the default profile's key nor ADREPORT_PROFILE's", async () => {
    const cwd = tempDir();
    const config = configDirWith(
      { profile: "acme" },
      { acme: { "api-key": ACME, "base-url": service.url }, other: { "api-key": ACME, "base-url": service.url } },
    );
    const env = { ADREPORT_CONFIG_DIR: config };
    const made = await run([...JOB, "-q"], cwd, { ...env, ADREPORT_API_KEY: GLOBEX, ADREPORT_BASE_URL: service.url });
    expect(made.code, made.stderr).toBe(0);
    const job = await jobOf(cwd, env);

    const asked = await run(["verify", job, "--against-service"], cwd, env);
    expect(asked.stdout).toBe("");
    expect(asked.stderr).toBe(
      `adreport: job ${job} was made with a key of no profile (ADREPORT_API_KEY or --api-key): profile acme's key (the default profile) is another account's and is not sent for it\n` +
        `hint: export ADREPORT_API_KEY with the key the job was made with, then run: adreport verify ${job} --against-service\n`,
    );
    expect(asked.code).toBe(3);
    const named = await run(["verify", job, "--against-service"], cwd, { ...env, ADREPORT_PROFILE: "other" });
    expect(named.code, named.stderr).toBe(3);
    expect(named.stderr).toContain("profile other's key (named by ADREPORT_PROFILE)");

    rmSync(join(cwd, "ag.db"));
    const repair = await run(["verify", job, "--repair"], cwd, env);
    expect(repair.code, repair.stderr).toBe(3);
    expect(repair.stderr).not.toContain("edited by hand");

    const own = await run(["verify", job, "--repair", "--against-service"], cwd, {
      ...env,
      ADREPORT_API_KEY: GLOBEX,
      ADREPORT_BASE_URL: service.url,
    });
    expect(own.code, own.stderr).toBe(0);
    expect(own.stderr).toContain("every one matches");
  }, 60_000);

  it("says what the environment sets aside once, however often verify loads the settings", async () => {
    const cwd = tempDir();
    const config = configDirWith({}, { globex: { "api-key": GLOBEX, "base-url": service.url } });
    const env = { ADREPORT_CONFIG_DIR: config };
    const made = await run([...JOB, "--profile", "globex", "-q"], cwd, env);
    expect(made.code, made.stderr).toBe(0);
    const job = await jobOf(cwd, env);
    rmSync(join(cwd, "ag.db"));
    const repair = await run(["verify", job, "--repair", "--against-service"], cwd, { ...env, ADREPORT_API_KEY: ACME });
    expect(repair.code, repair.stderr).toBe(0);
    expect(repair.stderr.match(/ADREPORT_API_KEY is not used/g)).toHaveLength(1);
    // Named by the job, not by a --profile the user never typed.
    expect(repair.stderr).toContain(
      "adreport: warning: ADREPORT_API_KEY is not used: profile globex (named by the job) uses its own key\n",
    );

    const gone = await run(["keys", "remove", "globex"], cwd, env);
    expect(gone.code, gone.stderr).toBe(0);
    const removed = await run(["verify", job, "--against-service"], cwd, env);
    expect(removed.code).toBe(2);
    expect(removed.stderr).toBe(
      'adreport: no profile named "globex" (from the job); none is set up yet\nhint: add it with: adreport keys add globex\n',
    );
  }, 60_000);
});
