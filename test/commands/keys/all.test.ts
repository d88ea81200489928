/**
 * `adreport keys test --all` and `keys request ... --all-profiles` in this process, against one real
 * `serve`: a working key, an expired one, one whitelisted for another address, one profile at a closed port.
 */
import { describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { configCli } from "../../helpers/config-cli";
import { startTestService } from "../../helpers/serve";

const service = await startTestService({
  keys: [
    { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
    { advertiser: "Acme Outdoor", ips: ["127.0.0.1"], expiresAt: Date.UTC(2020, 0, 1) / 1000 },
    { advertiser: "Acme Outdoor", ips: ["192.0.2.1"] },
  ],
});
const [OK, EXPIRED, ELSEWHERE] = service.keys as [string, string, string];
const { cli } = configCli(OK);
const at = (key: string, url = service.url) => ({ "api-key": key, "base-url": url });
const ALL = configDirWith(
  {},
  {
    acme: at(OK),
    closed: { ...at(OK, "http://127.0.0.1:9"), timeout: "2s" },
    expired: at(EXPIRED),
    hooli: at(ELSEWHERE),
  },
);
const GOOD = configDirWith(
  {},
  { acme: { ...at(OK), account: "Acme Outdoor GmbH" }, globex: { ...at(OK), account: "Globex Corporation" } },
);
const NONE = configDirWith({}, {});

describe.concurrent("keys test --all", () => {
  it("one line per profile in name order, the hints on stderr, exit 6 when some keys fail", async () => {
    const result = await cli(["keys", "test", "--all"], ALL);
    expect(result.code).toBe(6);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe("acme: ok");
    expect(lines[1]).toMatch(/^closed: unreachable: could not test the key: cannot reach 127\.0\.0\.1:9/);
    expect(lines[2]).toMatch(/^expired: key refused: the service refused the key at .*expired/);
    expect(lines[3]).toBe("hooli: IP not whitelisted: the service saw 127.0.0.1");
    expect(result.stderr).toContain(
      "hint: ask the operator to whitelist this host's static IP: adreport keys request add-ip --profile hooli --ip 127.0.0.1",
    );
    expect(result.stderr).toContain("adreport: partial: 3 of 4 accounts failed: closed, expired, hooli");
    for (const key of service.keys) expect(result.stdout + result.stderr).not.toContain(key.slice(4));
  });

  it("exit 0 when every key works; ADREPORT_API_KEY does not stand in for a profile's key", async () => {
    const result = await cli(["keys", "test", "--all"], GOOD, { env: { ADREPORT_API_KEY: EXPIRED } });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("acme: ok\nglobex: ok\n");
    expect(result.stderr).toContain("ADREPORT_API_KEY is ignored");
  });

  it("every key refused: exit 3", async () => {
    const config = configDirWith({}, { a: at(EXPIRED), b: at(EXPIRED) });
    const result = await cli(["keys", "test", "--all"], config);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("every account failed (key refused): a, b");
  });

  it.each([
    [["keys", "test", "--all", "acme"], "give a profile or --all-profiles, not both"],
    [["keys", "test", "--all"], "--all-profiles: there are no profiles yet"],
  ])("refuses %j with exit 2", async (args, message) => {
    const result = await cli(args, args.length === 3 ? NONE : GOOD);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

describe.concurrent("keys request --all-profiles", () => {
  it("one request per profile, each naming the profile's account setting", async () => {
    const result = await cli(["keys", "request", "add-ip", "--all-profiles", "--ip", "203.0.113.7"], GOOD);
    expect(result.code).toBe(0);
    const [first, second, ...rest] = result.stdout.split(`${"-".repeat(72)}\n`);
    expect(rest).toEqual([]);
    expect(first).toContain('Subject: Reporting API: add IP for account "Acme Outdoor GmbH"');
    expect(first).toContain("Account: Acme Outdoor GmbH\nRequest: add IP\nIP addresses: 203.0.113.7\n");
    expect(second).toContain('Subject: Reporting API: add IP for account "Globex Corporation"');
  });

  it("--format json: one array; ndjson: one object a line", async () => {
    const args = ["keys", "request", "add-ip", "--all-profiles", "--ip", "203.0.113.7", "--format"];
    const result = await cli([...args, "ndjson"], GOOD);
    const array = await cli([...args, "json"], GOOD);
    expect(JSON.parse(array.stdout)).toEqual(
      result.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l)),
    );
    expect(
      result.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { account: "Acme Outdoor GmbH", request: "add_ip", ips: ["203.0.113.7"] },
      { account: "Globex Corporation", request: "add_ip", ips: ["203.0.113.7"] },
    ]);
  });

  it("--combined: one request naming every account, as text or JSON", async () => {
    const args = [
      "keys",
      "request",
      "add-ip",
      "--all-profiles",
      "--combined",
      "--ip",
      "203.0.113.7",
      "--reason",
      "new office",
    ];
    const text = await cli(args, GOOD);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("Subject: Reporting API: add IP for 2 accounts");
    expect(text.stdout).toContain('Accounts:\n\n  "Acme Outdoor GmbH"\n  "Globex Corporation"\n');
    // Each account once: the facts under the body do not list them again (they did: "Accounts: acme, globex").
    expect(text.stdout.split("Globex Corporation")).toHaveLength(2);
    expect(text.stdout).toContain("\n\nRequest: add IP\nIP addresses: 203.0.113.7\nReason: new office\n");
    const json = await cli([...args, "--format", "json"], GOOD);
    expect(JSON.parse(json.stdout)).toEqual({
      accounts: ["Acme Outdoor GmbH", "Globex Corporation"],
      request: "add_ip",
      ips: ["203.0.113.7"],
      reason: "new office",
    });
  });

  it.each([
    [
      ["keys", "request", "add-ip", "--all-profiles", "--account", "A", "--ip", "203.0.113.7"],
      "--account and --all-profiles cannot be combined",
    ],
    [["keys", "request", "add-ip", "--all-profiles"], "needs the static outgoing IP"],
    [
      ["keys", "request", "add-ip", "--combined", "--account", "A", "--ip", "203.0.113.7"],
      "--combined goes with --all-profiles",
    ],
  ])("refuses %j with exit 2", async (args, message) => {
    const result = await cli(args, GOOD);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it("no profiles: exit 2 saying how to add one", async () => {
    const result = await cli(["keys", "request", "add-ip", "--all-profiles", "--ip", "203.0.113.7"], NONE);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("adreport keys add <profile>");
  });
});

describe("keys request: the account the operator knows", () => {
  const BARE = () => configDirWith({ profile: "acme" }, { acme: at(OK), globex: at(OK) });

  it("without a terminal, a profile with no account: the letter names the profile, and a note says how to set it", async () => {
    const result = await cli(["keys", "request", "rotate"], BARE());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('for the account "acme"');
    expect(result.stderr).toBe(
      'adreport: note: profile acme has no account set, so the letter names it "acme"; if the operator knows the account by another name, set that: adreport config set account NAME --profile acme\n',
    );
    const all = await cli(["keys", "request", "rotate", "--all-profiles", "--format", "json"], BARE());
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual([
      { account: "acme", request: "rotate_key", ips: [] },
      { account: "globex", request: "rotate_key", ips: [] },
    ]);
    expect(all.stderr).toContain(
      "adreport: note: profiles acme, globex have no account set, so the letters name them by the profiles' names",
    );
  });

  it("on a terminal it is asked once, saved in the profile, and used in every letter after", async () => {
    const config = BARE();
    const asked = await cli(["keys", "request", "rotate", "--all-profiles", "--combined"], config, {
      inIsTTY: true,
      input: "Acme Outdoor GmbH\nGlobex Corporation\n",
    });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stderr).toContain("Account name the operator knows for profile acme: ");
    expect(asked.stderr).toContain("Account name the operator knows for profile globex: ");
    expect(asked.stdout).toContain('  "Acme Outdoor GmbH"\n  "Globex Corporation"\n');
    expect(asked.stdout).not.toMatch(/"acme"|"globex"/);

    const again = await cli(["keys", "request", "rotate"], config, { inIsTTY: true });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe("");
    expect(again.stdout).toContain('for the account "Acme Outdoor GmbH"');
    const other = await cli(["keys", "request", "new", "--profile", "globex", "--format", "json"], config);
    expect(JSON.parse(other.stdout)).toEqual({ account: "Globex Corporation", request: "new_key", ips: [] });
    const got = await cli(["config", "get", "account", "--profile", "globex"], config);
    expect(got.stdout).toBe("Globex Corporation\n");
  });

  it("config set account takes a profile: set there, refused without one, checked", async () => {
    const config = BARE();
    const set = await cli(["config", "set", "account", "Acme Outdoor GmbH", "--profile", "acme"], config);
    expect(set.code, set.stderr).toBe(0);
    expect((await cli(["keys", "request", "rotate"], config)).stdout).toContain('"Acme Outdoor GmbH"');
    const global = await cli(["config", "set", "account", "Acme"], config);
    expect(global.code).toBe(2);
    expect(global.stderr).toContain("account is a profile's own");
    const blank = await cli(["config", "set", "account", "  ", "--profile", "acme"], config);
    expect(blank.code).toBe(2);
  });
});
