/**
 * `verify --against-service` and `--repair` of a job whose profile's base URL moved since the job was made:
 * the profile's key goes to neither URL until --base-url names one. The job was made through a forwarder
 * (its old URL) in front of a real `serve`, which then becomes the profile's URL; the forwarder counts
 * what still reaches it.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";
import { startForwarder } from "../../helpers/forwarder";
import { tempDir } from "../../helpers/temp";

const NOW = new Date("2026-11-02T06:00:00Z");

describe("verify: a job whose profile's base URL moved", () => {
  it("sends the key to neither URL without --base-url, and to the one --base-url names", async () => {
    const demo = await startDemoService();
    const old = await startForwarder(demo.service.url);
    const config = tempDir("adreport-config-");
    const profileAt = (url: string) =>
      writeFileSync(
        join(config, "config.json"),
        JSON.stringify({ settings: {}, profiles: { acme: { "api-key": demo.key, "base-url": url } } }),
        { mode: 0o600 },
      );
    profileAt(old.url);
    const env = { ADREPORT_CONFIG_DIR: config, ADREPORT_API_KEY: undefined, ADREPORT_BASE_URL: undefined };
    const run = (args: string[]) => demo.run(args, NOW, env);
    mkdirSync(join(demo.dir, "out"));
    const args = ["report", "--profile", "acme", "--dims", "campaign,date", "-o", "out/{date}.csv", "-q"];
    const made = await run([...args, "--incremental", "--start", "2026-10-01"]);
    expect(made.code, made.stderr).toBe(0);
    expect(old.froms.length).toBeGreaterThan(0);
    const list = await run(["state", "list", "--format", "json"]);
    const [{ job }] = JSON.parse(list.stdout) as [{ job: string }];

    profileAt(demo.service.url);
    const reached = old.froms.length;
    const refused = await run(["verify", job, "--against-service"]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(
      `adreport: job ${job} was made against ${old.url}, but profile acme now names ${demo.service.url}:`,
    );
    expect(refused.stderr).toContain(
      `hint: if the service moved there, run: adreport verify ${job} --against-service --base-url ${demo.service.url}\n`,
    );
    rmSync(join(demo.dir, "out", "2026-10-05.csv"));
    const repair = await run(["verify", job, "--repair"]);
    expect(repair.code, repair.stderr).toBe(2);
    expect(old.froms.length).toBe(reached);
    // Without a request to make (nothing differs and no --against-service), nothing to decide.
    expect((await run(["verify", job, "--from", "2026-10-06"])).code).toBe(0);

    const secret = await run(["verify", job, "--against-service", "--base-url", "http://me:s3cret@127.0.0.1:9"]);
    expect(secret.code, secret.stderr).toBe(2);
    expect(secret.stderr).not.toContain("s3cret");
    expect((await run(["verify", job, "--base-url", demo.service.url])).code).toBe(2);

    const named = await run(["verify", job, "--against-service", "--base-url", demo.service.url]);
    expect(named.stderr).toContain(`job ${job} was made against ${old.url}; asking ${demo.service.url} (--base-url)`);
    expect(named.stdout).toMatch(/^2026-10-05 {2}file missing/);
    expect(named.code, named.stderr).toBe(7);
    const mended = await run(["verify", job, "--repair", "--base-url", demo.service.url]);
    expect(mended.code, mended.stderr).toBe(0);
    expect(old.froms.length).toBe(reached);
    expect(readFileSync(join(demo.dir, "out", "2026-10-05.csv"), "utf8")).toMatch(/^campaign_id,name,date,/);
    // The repair kept the job (its id and its base URL): one job, as before.
    const after = JSON.parse((await run(["state", "list", "--format", "json"])).stdout) as Array<{ job: string }>;
    expect(after.map((j) => j.job)).toEqual([job]);
    const state = JSON.parse(readFileSync(join(config, "state", `${job}.json`), "utf8"));
    expect(state.job.baseUrl).toBe(old.url);
  }, 60_000);
});
