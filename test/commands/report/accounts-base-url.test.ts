/**
 * ADREPORT_BASE_URL over several accounts (`report --profiles/--all-profiles`, `keys test --all`): a
 * profile's key goes only to the profile's own base-url. Two real `serve`s, each knowing one account's key,
 * and a trap at the environment's address that counts what reached it.
 */
import { describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { startLocalServer } from "../../helpers/local-server";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { startTestService } from "../../helpers/serve";
import { tempDir } from "../../helpers/temp";

const acme = await startTestService({ keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }] });
const globex = await startTestService({ keys: [{ advertiser: "Globex, Inc.", ips: ["127.0.0.1"] }] });
const [ACME] = acme.keys as [string];
const [GLOBEX] = globex.keys as [string];
const seenAtTrap: string[] = [];
const trap = await startLocalServer((req, res) => {
  seenAtTrap.push(req.headers.authorization ?? "");
  res.writeHead(401, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { status: 401, code: "unauthorized", message: "wrong address" } }));
});
const OWN = configDirWith(
  {},
  { acme: { "api-key": ACME, "base-url": acme.url }, globex: { "api-key": GLOBEX, "base-url": globex.url } },
);
const RANGE = ["--from", "2026-10-01", "--to", "2026-10-31", "--dims", "campaign", "--format", "csv"];
const WARNING = "adreport: warning: ADREPORT_BASE_URL is ignored for acme, globex: each uses its profile's base-url";

function run(args: string[], config: string, env: Record<string, string> = {}) {
  return runInProcess(args, {
    now: new Date("2026-11-02T09:30:00Z"),
    env: { ADREPORT_CONFIG_DIR: config, ADREPORT_BASE_URL: trap.url, TMPDIR: tempDir("adreport-spool-"), ...env },
  });
}

/** Requests each service answered with its key (the access log names the key by its id). */
const used = (service: typeof acme) => service.accessLog.filter((line) => line.includes(" key#")).length;

describe("ADREPORT_BASE_URL with several accounts", () => {
  it.each([
    ["--profiles", ["report", "--profiles", "acme,globex", ...RANGE]],
    ["--all-profiles", ["report", "--all-profiles", ...RANGE]],
    ["keys test --all", ["keys", "test", "--all"]],
  ])("%s sends each key to its profile's own base-url, none to the environment's", async (_name, args) => {
    const before = { acme: used(acme), globex: used(globex), trap: trap.count() };
    const result = await run(args, OWN);
    expect(result.stderr).toContain(WARNING);
    expect(result.code).toBe(0);
    expect(trap.count()).toBe(before.trap);
    expect(used(acme)).toBeGreaterThan(before.acme);
    expect(used(globex)).toBeGreaterThan(before.globex);
    for (const key of [ACME, GLOBEX]) expect(result.stdout + result.stderr).not.toContain(key.slice(4));
  });

  it("a profile without a base-url of its own is sent to ADREPORT_BASE_URL, as with --profile", async () => {
    const config = configDirWith({}, { acme: { "api-key": ACME, "base-url": acme.url }, plain: { "api-key": GLOBEX } });
    const before = used(globex);
    const result = await run(["keys", "test", "--all"], config, { ADREPORT_BASE_URL: globex.url });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("acme: ok\nplain: ok\n");
    expect(result.stderr).toContain(
      "adreport: warning: ADREPORT_BASE_URL is ignored for acme: each uses its profile's base-url",
    );
    expect(used(globex)).toBe(before + 1);
  });

  it("no warning when no profile has an address of its own, or when it is the same", async () => {
    const same = configDirWith({}, { acme: { "api-key": ACME, "base-url": `${acme.url}/` } });
    const result = await run(["keys", "test", "--all"], same, { ADREPORT_BASE_URL: acme.url });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain("ADREPORT_BASE_URL");
  });

  it("--base-url still applies to every account (a flag is typed for this run)", async () => {
    const result = await run(["keys", "test", "--all", "--base-url", trap.url], OWN);
    expect(result.code).toBe(3);
    expect(seenAtTrap.length).toBeGreaterThan(0);
  });
});
