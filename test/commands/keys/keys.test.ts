/**
 * `adreport keys` in this process: a real config folder per case, stdin or a hidden prompt for the key,
 * `keys request`, and `keys test` against a real `serve` on 127.0.0.1.
 */
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configCli } from "../../helpers/config-cli";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { demoNdjson } from "../../helpers/serve";
import { type InProcessServe, serveInProcess } from "../../helpers/serve-in-process";
import { tempDir } from "../../helpers/temp";

const KEY = `adr_${"S3cr3tK3yMat3rial".repeat(2)}abcdefghi`;
const { cli, newConfigDir } = configCli(KEY);

describe("keys", () => {
  it("adds a key from stdin, never echoing it, in a 0600 file in a 0700 folder", async () => {
    const config = newConfigDir();
    const added = await cli(["keys", "add", "acme", "--stdin"], config, { input: `${KEY}\n` });
    expect(added.code).toBe(0);
    expect(added.stderr).toContain("added profile acme (adr_S3cr…fghi), the default");
    expect(statSync(config).mode & 0o777).toBe(0o700);
    expect(statSync(join(config, "config.json")).mode & 0o777).toBe(0o600);
    const list = await cli(["keys", "list"], config);
    expect(list.stdout).toMatch(/\*\s+│ acme\s+│ adr_S3cr…fghi/);
    expect((await cli(["keys", "show", "acme"], config)).stdout).toBe("adr_S3cr…fghi\n");
    expect((await cli(["keys", "show", "acme", "--reveal"], config)).stdout).toBe(`${KEY}\n`);
  });

  it("reads the key from a hidden prompt when stdin is a terminal", async () => {
    const config = newConfigDir();
    const result = await cli(["keys", "add", "acme"], config, {
      input: `${KEY}\n`,
      inIsTTY: true,
      errIsTTY: true,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("API key for profile acme (input is hidden):");
    expect(result.stderr).not.toContain(KEY);
    expect(result.stdout).toBe("");
    expect(JSON.parse(readFileSync(join(config, "config.json"), "utf8")).profiles.acme["api-key"]).toBe(KEY);
  });

  it("replaces a profile's key, switches the default, removes a profile", async () => {
    const config = newConfigDir();
    await cli(["keys", "add", "acme"], config, { input: KEY });
    await cli(["keys", "add", "globex", "--base-url", "https://globex.example/"], config, { input: `${KEY}2` });
    const replaced = await cli(["keys", "add", "acme"], config, { input: `${KEY}3` });
    expect(replaced.stderr).toContain("replaced the key of profile acme");
    expect((await cli(["keys", "use", "globex"], config)).code).toBe(0);
    const list = await cli(["keys", "list", "--format", "json"], config);
    expect(JSON.parse(list.stdout)).toEqual([
      { profile: "acme", key: "adr_S3cr…ghi3", base_url: "", account: null, default: false },
      { profile: "globex", key: "adr_S3cr…ghi2", base_url: "https://globex.example", account: null, default: true },
    ]);
    const removed = await cli(["keys", "remove", "globex"], config);
    expect(removed.stderr).toContain("there is no default profile now");
    expect((await cli(["keys", "remove", "globex"], config)).code).toBe(2);
  });

  it.each([
    [["keys", "add", "bad name!"], "is not a profile name"],
    [["keys", "add", "x"], "no key given"],
    [["keys", "show", "nope"], 'no profile named "nope"'],
    [["keys", "use", "nope"], 'no profile named "nope"'],
  ])("refuses %j with exit 2", async (args, message) => {
    const result = await cli(args, newConfigDir(), { input: "" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it.each([
    ["an escape sequence", `adr_\u001b]0;pwned\u0007${"k".repeat(20)}`],
    ["a bell", `adr_${"k".repeat(20)}\u0007`],
    ["DEL", `adr_${"k".repeat(20)}\u007f`],
    ["a C1 control", `adr_${"k".repeat(20)}\u009b31m`],
    ["a zero-width space", `adr_${"k".repeat(10)}\u200b${"k".repeat(10)}`],
    ["a bidirectional override", `adr_${"k".repeat(10)}\u202e${"k".repeat(10)}`],
  ])("refuses a key with %s: exit 2, one line, the key never shown, nothing stored", async (_label, key) => {
    const config = newConfigDir();
    const result = await cli(["keys", "add", "acme"], config, { input: `${key}\n` });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "adreport: the key contains control or invisible characters (not shown); paste the key as plain text\n",
    );
    expect(existsSync(join(config, "config.json"))).toBe(false);
  });

  it("never writes a control character of a hand-edited key to the terminal", async () => {
    const config = newConfigDir();
    await cli(["keys", "add", "acme"], config, { input: KEY });
    const path = join(config, "config.json");
    const data = JSON.parse(readFileSync(path, "utf8"));
    data.profiles.acme["api-key"] = "adr_\u001b[31mXXXXXXXXXXXXXXXX\u0007";
    writeFileSync(path, JSON.stringify(data), { mode: 0o600 });
    for (const args of [
      ["keys", "list"],
      ["keys", "show", "acme"],
      ["config", "list"],
    ]) {
      const result = await cli(args, config);
      // config list writes TSV off a terminal: its tabs and newlines are the only control characters allowed.
      expect((result.stdout + result.stderr).replace(/[\t\n]/g, ""), args.join(" ")).not.toMatch(/\p{Cc}/u);
    }
    expect((await cli(["keys", "show", "acme"], config)).stdout).toBe("adr_\\x1b[31…XXX\\x07\n");
  });

  it("keys add --account keeps the account the operator knows, for keys request's letters", async () => {
    const config = newConfigDir();
    const added = await cli(["keys", "add", "acme", "--account", " Acme Outdoor GmbH "], config, { input: KEY });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain(
      'added profile acme (adr_S3cr…fghi) for the account "Acme Outdoor GmbH", the default',
    );
    const list = await cli(["keys", "list", "--format", "json"], config);
    expect(JSON.parse(list.stdout)).toMatchObject([{ profile: "acme", account: "Acme Outdoor GmbH" }]);
    const letter = await cli(["keys", "request", "rotate"], config);
    expect(letter.code, letter.stderr).toBe(0);
    expect(letter.stderr).toBe("");
    expect(letter.stdout).toContain('for the account "Acme Outdoor GmbH"');
    const replaced = await cli(["keys", "add", "acme"], config, { input: `${KEY}2` });
    expect(replaced.code).toBe(0);
    expect(JSON.parse((await cli(["keys", "list", "--format", "json"], config)).stdout)[0].account).toBe(
      "Acme Outdoor GmbH",
    );
    const bad = await cli(["keys", "add", "globex", "--account", "a\u001b[2Jb"], config, { input: KEY });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("adreport: --account: expected one line of text, without control characters\n");
  });

  it("warns when others can read the keys, rewrites the file 0600, and leaves an existing folder's mode alone", async () => {
    const config = newConfigDir();
    await cli(["keys", "add", "acme"], config, { input: KEY });
    chmodSync(join(config, "config.json"), 0o644);
    const read = await cli(["keys", "list"], config);
    expect(read.code).toBe(0);
    expect(read.stderr).toContain("holds API keys but is mode 0644, readable by others: run chmod 600");
    chmodSync(config, 0o755);
    expect((await cli(["keys", "use", "acme"], config)).code).toBe(0);
    expect(statSync(join(config, "config.json")).mode & 0o777).toBe(0o600);
    expect(statSync(config).mode & 0o777).toBe(0o755);
  });

  it("names a corrupted config file and leaves it as it was", async () => {
    const config = newConfigDir();
    await cli(["keys", "add", "acme"], config, { input: KEY });
    const path = join(config, "config.json");
    writeFileSync(path, '{"profiles": {"acme": {"api-key": "adr_x"', { mode: 0o600 });
    for (const args of [["keys", "list"], ["keys", "add", "other"], ["config", "set", "retries", "2"], ["report"]]) {
      const result = await cli(args, config, { input: KEY });
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(`cannot read the config file ${path}`);
    }
    expect(readFileSync(path, "utf8")).toBe('{"profiles": {"acme": {"api-key": "adr_x"');
  });
});

describe("keys request", () => {
  it("writes the operator request with the account, the request and the IPs", async () => {
    const result = await cli(
      [
        "keys",
        "request",
        "add-ip",
        "--account",
        "Acme Outdoor",
        "--ip",
        "203.0.113.7,2001:db8::1",
        "--reason",
        "new office",
      ],
      newConfigDir(),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Subject: Reporting API: add IP for account "Acme Outdoor"');
    expect(result.stdout).toContain(
      "Account: Acme Outdoor\nRequest: add IP\nIP addresses: 203.0.113.7, 2001:db8::1\nReason: new office",
    );
  });

  it("writes JSON for ticketing systems", async () => {
    const result = await cli(
      ["keys", "request", "new", "--account", "Acme", "--ip", "198.51.100.4", "--format", "json"],
      newConfigDir(),
    );
    expect(JSON.parse(result.stdout)).toEqual({ account: "Acme", request: "new_key", ips: ["198.51.100.4"] });
  });

  it.each([
    [["keys", "request", "add-ip", "--account", "A"], "needs the static outgoing IP"],
    [["keys", "request", "add-ip", "--account", "A", "--ip", "1.2.3"], "is not an IPv4 or IPv6 address"],
    [["keys", "request", "add-ip", "--account", "A", "--ip", "10.0.0.0/8"], "is not an IPv4 or IPv6 address"],
    [["keys", "request", "rename", "--account", "A"], "'rename' is invalid"],
    [["keys", "request", "rotate"], "--account: give the advertiser or account name the operator knows"],
  ])("refuses %j with exit 2", async (args, message) => {
    const result = await cli(args, newConfigDir());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

describe("keys test against a real serve", () => {
  // Built once; no case changes the database or the server.
  let keys: Record<"ok" | "expired" | "elsewhere", string>;
  let serve: InProcessServe;
  beforeAll(async () => {
    const dir = tempDir();
    const db = join(dir, "keys.db");
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    expect((await runInProcess(["serve", "load", "--db", db, demoNdjson(dir).path])).code).toBe(0);
    const issue = async (...extra: string[]) =>
      (
        await runInProcess(["serve", "key", "issue", "--db", db, "--advertiser", "Acme Outdoor", ...extra])
      ).stdout.trim();
    keys = {
      ok: await issue("--ip", "127.0.0.1"),
      expired: await issue("--ip", "127.0.0.1", "--expires", "2020-01-01"),
      elsewhere: await issue("--ip", "192.0.2.10"),
    };
    serve = await serveInProcess(["--db", db, "--quiet"]);
  });
  afterAll(async () => {
    expect((await serve.stop()).code).toBe(0);
  });

  async function test(key: string) {
    const config = newConfigDir();
    await cli(["keys", "add", "acme", "--base-url", serve.url], config, { input: key });
    return cli(["keys", "test"], config);
  }

  it("OK: exit 0 and one line on stdout", async () => {
    const result = await test(keys.ok);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok: profile acme works from this host/);
  });

  it("401 for an unknown key: exit 3, get a new key or a rotation", async () => {
    const result = await test(`adr_${"z".repeat(43)}`);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("missing, invalid or expired");
    expect(result.stderr).toContain("adreport keys request rotate --profile acme");
  });

  it("401 for an expired key: exit 3, and says it expired", async () => {
    const result = await test(keys.expired);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("expired");
  });

  it("403 when this host is not whitelisted: exit 4, the add-ip request", async () => {
    const result = await test(keys.elsewhere);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("this host's outgoing IP is not on its whitelist");
    expect(result.stderr).toContain("adreport keys request add-ip --profile acme --ip 127.0.0.1");
  });

  it("network failure: exit 5", async () => {
    const config = newConfigDir();
    await cli(["keys", "add", "acme", "--base-url", "http://127.0.0.1:9"], config, { input: KEY });
    const result = await cli(["keys", "test"], config);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain("could not test the key");
  });
});
