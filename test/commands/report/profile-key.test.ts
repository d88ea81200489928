/**
 * Whose key a profile sends (config/credentials.ts): a profile named by --profile or ADREPORT_PROFILE sends
 * its own key and base-url, whatever ADREPORT_API_KEY and ADREPORT_BASE_URL hold, so a database target's
 * `profile` column and a job's identity never label another account's rows; a key from the environment
 * belongs to no profile. One real `serve` with two advertisers, a trap at the environment's address.
 */

import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { startLocalServer } from "../../helpers/local-server";
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
const campaignsOf = (advertiser: string) =>
  [...new Set(service.lines.filter((line) => line.advertiser === advertiser).map((line) => line.campaign_id))].sort();
const ACME_CAMPAIGNS = campaignsOf("Acme Outdoor");
const GLOBEX_CAMPAIGNS = campaignsOf("Globex, Inc.");
let trapped = 0;
const trap = await startLocalServer((_req, res) => {
  trapped += 1;
  res.writeHead(401, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { status: 401, code: "invalid_key", message: "wrong address" } }));
});

const RANGE = ["--from", "2026-10-01", "--to", "2026-10-31", "--dims", "campaign,date"];
const outputs: CliResult[] = [];

async function run(args: string[], config: string, env: Record<string, string> = {}): Promise<CliResult> {
  const result = await runInProcess(args, {
    now: new Date("2026-11-02T09:30:00Z"),
    env: { ADREPORT_CONFIG_DIR: config, ...env },
  });
  outputs.push(result);
  for (const key of service.keys) expect(result.stdout + result.stderr).not.toContain(key.slice(4));
  return result;
}

/** The campaigns and profile names a database target holds. */
function stored(path: string): { profiles: string[]; campaigns: number[] } {
  const db = new Database(path, { readonly: true });
  try {
    const table = (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'adreport_loads%'")
        .all() as Array<{ name: string }>
    ).find((t) => t.name.startsWith("adreport_"))?.name;
    const rows = db.prepare(`SELECT profile, campaign_id FROM "${table}"`).all() as Array<{
      profile: string;
      campaign_id: number;
    }>;
    return {
      profiles: [...new Set(rows.map((r) => r.profile))],
      campaigns: [...new Set(rows.map((r) => r.campaign_id))].sort(),
    };
  } finally {
    db.close();
  }
}

/** Globex's own key and address; the default profile is acme's. */
const agency = () =>
  configDirWith(
    { profile: "acme" },
    {
      acme: { "api-key": ACME, "base-url": service.url },
      globex: { "api-key": GLOBEX, "base-url": service.url },
    },
  );

describe("a named profile sends its own key, whatever the environment holds", () => {
  it.each([
    ["--profile globex", ["--profile", "globex"], {}, "--profile"],
    ["ADREPORT_PROFILE=globex", [], { ADREPORT_PROFILE: "globex" }, "ADREPORT_PROFILE"],
  ] as const)(
    "%s with ADREPORT_API_KEY=acme's key: globex's rows under globex, and a warning",
    async (_label, flag, env, by) => {
      const db = join(tempDir(), "agency.db");
      const result = await run(["report", ...flag, ...RANGE, "-o", `sqlite:${db}`], agency(), {
        ADREPORT_API_KEY: ACME,
        ...env,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(
        `adreport: warning: ADREPORT_API_KEY is not used: profile globex (named by ${by}) uses its own key\n`,
      );
      expect(stored(db)).toEqual({ profiles: ["globex"], campaigns: GLOBEX_CAMPAIGNS });
    },
  );

  it("to stdout too: globex's campaigns, none of acme's", async () => {
    const result = await run(["report", "--profile", "globex", ...RANGE, "-f", "ndjson"], agency(), {
      ADREPORT_API_KEY: ACME,
    });
    expect(result.code, result.stderr).toBe(0);
    const ids = result.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { dimensions: { campaign_id: number } }).dimensions.campaign_id);
    expect([...new Set(ids)].sort()).toEqual(GLOBEX_CAMPAIGNS);
  });

  it("and to its own base-url, not ADREPORT_BASE_URL's (the key is never sent there)", async () => {
    const before = trapped;
    const result = await run(["report", "--profile", "globex", ...RANGE, "-f", "csv"], agency(), {
      ADREPORT_BASE_URL: trap.url,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      "adreport: warning: ADREPORT_BASE_URL is not used: profile globex (named by --profile) uses its own base-url",
    );
    expect(trapped).toBe(before);
  });

  it("a named profile without a key is exit 3, not the environment's key", async () => {
    const config = configDirWith({}, { bare: { "base-url": service.url } });
    const result = await run(["report", "--profile", "bare", ...RANGE, "-f", "csv"], config, {
      ADREPORT_API_KEY: ACME,
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      "adreport: no API key: profile bare has none\nhint: store its key: adreport keys add bare",
    );
  });
});

describe("the default profile's key and ADREPORT_BASE_URL", () => {
  it("sent to the environment's address (it outranks a profile not named), with a word that it is not its own", async () => {
    const config = configDirWith({ profile: "globex" }, { globex: { "api-key": GLOBEX, "base-url": service.url } });
    const result = await run(["report", ...RANGE], config, { ADREPORT_BASE_URL: trap.url });
    expect(result.stderr).toContain(
      "adreport: warning: the default profile globex's base-url is not used: its key goes to ADREPORT_BASE_URL (--profile globex uses its own base-url)\n",
    );
    const named = await run(["report", ...RANGE, "-f", "csv"], config, {
      ADREPORT_BASE_URL: trap.url,
      ADREPORT_PROFILE: "globex",
    });
    expect(named.code, named.stderr).toBe(0);
    const same = await run(["report", ...RANGE, "-f", "csv"], config, { ADREPORT_BASE_URL: `${service.url}/` });
    expect(same.stderr).toBe("");
  });
});

describe("a key left in the environment with a space or a line break", () => {
  it.each([
    ["a space alone", " "],
    ["a key and a CR", `${ACME}\r`],
    ["a space and a key", ` ${ACME}`],
  ])("%s: exit 2, saying how to set it aside", async (_what, key) => {
    const config = configDirWith({}, { globex: { "api-key": GLOBEX, "base-url": service.url } });
    const result = await run(["report", ...RANGE, "--base-url", trap.url], config, { ADREPORT_API_KEY: key });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^adreport: the key in ADREPORT_API_KEY: the key contains /);
    expect(result.stderr).toContain(
      "hint: set ADREPORT_API_KEY to the key alone, or unset ADREPORT_API_KEY to use a profile's key\n",
    );
  });
});

describe("an address with a password in it", () => {
  it("ADREPORT_BASE_URL or --base-url: refused for what it is, the password never shown", async () => {
    const config = configDirWith({}, {});
    const env = await run(["report", ...RANGE], config, {
      ADREPORT_API_KEY: ACME,
      ADREPORT_BASE_URL: "http://me:s3cret@127.0.0.1:9",
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toBe(
      "adreport: ADREPORT_BASE_URL: a base URL carries no user name or password (the key travels in a header)\n",
    );
    const flag = await run(["report", ...RANGE, "--base-url", "http://me:s3cret@127.0.0.1:9"], config, {
      ADREPORT_API_KEY: ACME,
    });
    expect(flag.stderr).toContain("--base-url: a base URL carries no user name or password");
    expect(flag.stderr).not.toContain("s3cret");
  });
});

describe("a profile name left over from another task", () => {
  it("ADREPORT_PROFILE or a default naming a removed profile: the hint sets the name aside before adding it", async () => {
    const config = configDirWith({ profile: "gone" }, { globex: { "api-key": GLOBEX, "base-url": service.url } });
    const fromEnv = await run(["report", ...RANGE], config, { ADREPORT_PROFILE: "deleted" });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toBe(
      'adreport: no profile named "deleted" (from environment); known: globex\n' +
        "hint: unset ADREPORT_PROFILE, or add it with: adreport keys add deleted\n",
    );
    const fromFile = await run(["report", ...RANGE], config);
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toContain(
      "hint: make another the default: adreport keys use globex; or add it with: adreport keys add gone\n",
    );
  });
});

describe("a key typed where a profile name goes", () => {
  it("is never echoed, nor offered as a profile to add", async () => {
    const config = configDirWith({}, { globex: { "api-key": GLOBEX, "base-url": service.url } });
    const wrong = "adr_dvXl9Qk2mZ7pR4sT8uV1wY3aB5cD6eF0gH2iJ4kL6";
    for (const args of [
      ["report", ...RANGE, "--profile", wrong],
      ["keys", "test", wrong],
    ]) {
      const result = await run(args, config);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).not.toContain(wrong);
      expect(result.stderr).toContain("looks like a key (not shown); known: globex");
      expect(result.stderr).toContain(
        "hint: a key is stored in a profile, whose name --profile takes: adreport keys add --help\n",
      );
    }
  });
});

describe("a key from the environment belongs to no profile", () => {
  it("with a default profile set: the environment's account, stored under no profile's name, and said", async () => {
    const db = join(tempDir(), "agency.db");
    const config = configDirWith(
      { profile: "globex", "base-url": service.url },
      { globex: { "api-key": GLOBEX, "base-url": service.url } },
    );
    const result = await run(["report", ...RANGE, "-o", `sqlite:${db}`], config, { ADREPORT_API_KEY: ACME });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      "adreport: warning: the default profile globex is not used: the key in ADREPORT_API_KEY belongs to no profile (--profile globex uses globex's own key)",
    );
    expect(stored(db)).toEqual({ profiles: [""], campaigns: ACME_CAMPAIGNS });
  });

  it("keys test names where the key came from, and its 401 hint fits it", async () => {
    const config = configDirWith({ profile: "acme" }, { acme: { "api-key": ACME, "base-url": service.url } });
    const ok = await run(["keys", "test", "--base-url", service.url], config, { ADREPORT_API_KEY: GLOBEX });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^ok: the key in ADREPORT_API_KEY works from this host/);
    const record = await run(["keys", "test", "--base-url", service.url, "--format", "json"], config, {
      ADREPORT_API_KEY: GLOBEX,
    });
    expect(JSON.parse(record.stdout)).toEqual({ profile: null, outcome: "ok", error: null, seen_address: null });
    const named = await run(["keys", "test", "acme"], config, { ADREPORT_API_KEY: GLOBEX });
    expect(named.stdout).toMatch(/^ok: profile acme works from this host/);
    expect(named.stderr).toContain("ADREPORT_API_KEY is not used: profile acme (named by --profile) uses its own key");
    const refused = await run(["keys", "test", "--base-url", service.url], config, {
      ADREPORT_API_KEY: `adr_${"z".repeat(43)}`,
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("adreport: the key in ADREPORT_API_KEY: the service refused the key");
    expect(refused.stderr).not.toContain("adreport: profile acme");
    expect(refused.stderr).not.toContain("rotate");
    expect(refused.stderr).toContain("hint: ADREPORT_API_KEY holds the refused key and belongs to no profile");
  });
});
