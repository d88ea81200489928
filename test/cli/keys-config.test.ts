/**
 * `adreport keys` and `adreport config` as users meet them: the real CLI, a real config folder, a pseudo-
 * terminal for the hidden prompt, and `keys test` against a real `serve`.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, cliCommand, runCli, startCliServe } from "../helpers/cli";
import { demoNdjson } from "../helpers/serve";
import { tempDir } from "../helpers/temp";

const dir = tempDir();
const KEY = `adr_${"S3cr3tK3yMat3rial".repeat(2)}abcdefghi`;
const outputs: CliResult[] = [];
let configCount = 0;

function newConfigDir(): string {
  configCount += 1;
  return join(dir, `config-${configCount}`);
}

async function cli(
  args: string[],
  configDir: string,
  options: { input?: string; env?: Record<string, string | undefined> } = {},
) {
  const result = await runCli(args, { env: { ADREPORT_CONFIG_DIR: configDir, ...options.env }, input: options.input });
  outputs.push(result);
  return result;
}

afterAll(() => {
  for (const output of outputs) {
    if (!output.stdout.startsWith(`${KEY}\n`)) expect(output.stdout).not.toContain(KEY);
    expect(output.stderr).not.toContain(KEY);
    expect(output.stderr).not.toContain(KEY.slice(8, -4));
  }
});

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

  it("reads the key from a hidden prompt on a terminal", () => {
    const config = newConfigDir();
    const [command, args] = cliCommand(["keys", "add", "acme"]);
    const result = spawnSync(
      "python3",
      [join(import.meta.dirname, "..", "helpers", "pty-run.py"), "80", KEY, "API key", "--", command, ...args],
      { encoding: "utf8", env: { ...process.env, ADREPORT_CONFIG_DIR: config } },
    );
    const { screen, code } = JSON.parse(result.stdout) as { screen: string; code: number };
    expect(code).toBe(0);
    expect(screen).toContain("API key for profile acme (input is hidden):");
    expect(screen).not.toContain(KEY);
    expect(JSON.parse(readFileSync(join(config, "config.json"), "utf8")).profiles.acme["api-key"]).toBe(KEY);
  });

  it("replaces a profile's key, switches the default, removes a profile", async () => {
    const config = newConfigDir();
    await cli(["keys", "add", "acme"], config, { input: KEY });
    await cli(["keys", "add", "globex", "--base-url", "https://globex.example/"], config, { input: `${KEY}2` });
    const replaced = await cli(["keys", "add", "acme"], config, { input: `${KEY}3` });
    expect(replaced.stderr).toContain("replaced the key of profile acme");
    expect((await cli(["keys", "use", "globex"], config)).code).toBe(0);
    const list = await cli(["keys", "list", "--json"], config);
    expect(
      list.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { profile: "acme", key: "adr_S3cr…ghi3", baseUrl: "", default: false },
      { profile: "globex", key: "adr_S3cr…ghi2", baseUrl: "https://globex.example", default: true },
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
    [["keys", "request", "rotate"], "required option '--account <name>' not specified"],
  ])("refuses %j with exit 2", async (args, message) => {
    const result = await cli(args, newConfigDir());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

describe("keys test against a real serve", () => {
  const db = join(dir, "keys.db");
  let ready: Promise<{ keys: Record<"ok" | "expired" | "elsewhere", string>; server: { url: string } }>;
  beforeAll(() => {
    ready = start();
    return ready;
  });
  const start = async () => {
    await runCli(["serve", "init", "--db", db]);
    await runCli(["serve", "load", "--db", db, demoNdjson(dir).path]);
    const issue = async (...extra: string[]) =>
      (await runCli(["serve", "key", "issue", "--db", db, "--advertiser", "Acme Outdoor", ...extra])).stdout.trim();
    const keys = {
      ok: await issue("--ip", "127.0.0.1"),
      expired: await issue("--ip", "127.0.0.1", "--expires", "2020-01-01"),
      elsewhere: await issue("--ip", "192.0.2.10"),
    };
    const server = await startCliServe(["--db", db, "--quiet"]);
    return { keys, server };
  };

  async function test(key: string) {
    const { server } = await ready;
    const config = newConfigDir();
    await cli(["keys", "add", "acme", "--base-url", server.url], config, { input: key });
    return cli(["keys", "test"], config);
  }

  it("OK: exit 0 and one line on stdout", async () => {
    const { keys } = await ready;
    const result = await test(keys.ok);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok: profile acme works from this host/);
  });

  it("401 for an unknown key: exit 3, get a new key or a rotation", async () => {
    const result = await test(`adr_${"z".repeat(43)}`);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("missing, invalid or expired");
    expect(result.stderr).toContain('adreport keys request rotate --account "acme"');
  });

  it("401 for an expired key: exit 3, and says it expired", async () => {
    const { keys } = await ready;
    const result = await test(keys.expired);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("expired");
  });

  it("403 when this host is not whitelisted: exit 4, the add-ip request", async () => {
    const { keys } = await ready;
    const result = await test(keys.elsewhere);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("this host's outgoing IP is not on its whitelist");
    expect(result.stderr).toContain('adreport keys request add-ip --account "acme" --ip 127.0.0.1');
  });

  it("network failure: exit 5", async () => {
    const config = newConfigDir();
    await cli(["keys", "add", "acme", "--base-url", "http://127.0.0.1:9"], config, { input: KEY });
    const result = await cli(["keys", "test"], config);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain("could not test the key");
  });
});

describe("config", () => {
  it("sets, gets, unsets and lists settings with where each comes from", async () => {
    const config = newConfigDir();
    await cli(["keys", "add", "acme"], config, { input: KEY });
    expect((await cli(["config", "set", "page-size", "500"], config)).code).toBe(0);
    expect((await cli(["config", "set", "delimiter", "tab"], config)).code).toBe(0);
    expect((await cli(["config", "set", "base-url", "https://acme.example", "--profile", "acme"], config)).code).toBe(
      0,
    );
    expect((await cli(["config", "get", "page-size"], config)).stdout).toBe("500\n");
    expect((await cli(["config", "get", "delimiter"], config)).stdout).toBe("tab\n");
    const list = await cli(["config", "list", "--json"], config, { env: { ADREPORT_BASE_URL: "https://env.example" } });
    const rows = Object.fromEntries(
      list.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
        .map((r) => [r.setting, r]),
    );
    expect(rows["page-size"]).toEqual({ setting: "page-size", value: "500", source: "config file" });
    expect(rows["base-url"]).toEqual({ setting: "base-url", value: "https://env.example", source: "environment" });
    expect(rows.retries).toEqual({ setting: "retries", value: "4", source: "default" });
    expect(rows.profile).toEqual({ setting: "profile", value: "acme", source: "config file" });
    expect(rows["api-key"]).toEqual({ setting: "api-key", value: "adr_S3cr…fghi", source: "profile" });
    const flagged = await cli(["config", "list", "--json", "--base-url", "https://flag.example"], config);
    expect(flagged.stdout).toContain('"value":"https://flag.example","source":"flag"');
    const fromProfile = await cli(["config", "get", "base-url"], config);
    expect(fromProfile.stdout).toBe("https://acme.example\n");
    await cli(["config", "unset", "page-size"], config);
    expect((await cli(["config", "get", "page-size"], config)).stdout).toBe("1000\n");
  });

  it.each([
    [["config", "set", "colour", "red"], 'unknown setting "colour"; the settings are: base-url, profile, format'],
    [["config", "set", "format", "xml"], "format: expected one of table, csv, tsv, json, ndjson"],
    [["config", "set", "concurrency", "0"], "concurrency: expected a whole number from 1 to 32"],
    [["config", "set", "timeout", "forever"], "timeout: expected a duration"],
    [["config", "set", "base-url", "reports.example.com"], "base-url: expected an http(s) URL"],
    [["config", "set", "profile", "nobody"], 'no profile named "nobody"'],
    [["config", "get", "api-key"], "keys live in profiles"],
  ])("refuses %j with exit 2", async (args, message) => {
    const result = await cli(args, newConfigDir());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it("prints the config file's path, from ADREPORT_CONFIG_DIR", async () => {
    const config = newConfigDir();
    expect((await cli(["config", "path"], config)).stdout).toBe(`${join(config, "config.json")}\n`);
    expect(existsSync(config)).toBe(false);
  });

  it("feeds report: a profile's key and settings are used, flags win", async () => {
    const config = newConfigDir();
    await cli(["keys", "add", "acme", "--base-url", "http://127.0.0.1:9"], config, { input: KEY });
    await cli(["config", "set", "retries", "0"], config);
    const viaProfile = await cli(["report", "--from", "2026-10-01", "--to", "2026-10-02"], config);
    expect(viaProfile.code).toBe(5);
    expect(viaProfile.stderr).toContain("cannot reach 127.0.0.1:9");
    expect(viaProfile.stderr).not.toContain("gave up after");
    const viaFlag = await cli(
      ["report", "--from", "2026-10-01", "--to", "2026-10-02", "--base-url", "http://127.0.0.1:1", "--retries", "1"],
      config,
    );
    expect(viaFlag.stderr).toContain("cannot reach 127.0.0.1:1");
    expect(viaFlag.stderr).toContain("gave up after 2 attempts");
  });
});

// Like ssh's StrictModes. The tests run as root (CI), which can hand a folder to "nobody" (65534) to
// play the other user; as anyone else they are skipped.
const NOBODY = 65_534;
const asRoot = process.getuid?.() === 0;

describe.skipIf(!asRoot)("a config folder or file someone else could write is refused", () => {
  /** A local service that counts the requests a planted base-url would send it. */
  async function countingServer() {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests += 1;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    return { url: `http://127.0.0.1:${port}`, requests: () => requests, close: () => server.close() };
  }

  function chowned(path: string): string {
    chownSync(path, NOBODY, NOBODY);
    return path;
  }

  function chmodded(path: string, mode: number): string {
    chmodSync(path, mode);
    return path;
  }

  function plant(folder: string, baseUrl: string): void {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(join(folder, "config.json"), JSON.stringify({ settings: { "base-url": baseUrl }, profiles: {} }), {
      mode: 0o600,
    });
  }

  /** Spoils a planted folder and returns what ADREPORT_CONFIG_DIR should name. */
  const setups: Array<[string, (folder: string) => string, string]> = [
    ["a folder owned by another user", (f) => chowned(f), `belongs to uid ${NOBODY}`],
    ["a folder writable by others", (f) => chmodded(f, 0o777), "is mode 0777, writable by others"],
    ["a folder writable by its group", (f) => chmodded(f, 0o770), "is mode 0770, writable by others"],
    ["a config.json owned by another user", (f) => dirname(chowned(join(f, "config.json"))), "belongs to uid"],
    [
      "a config.json writable by its group",
      (f) => dirname(chmodded(join(f, "config.json"), 0o620)),
      "is mode 0620, writable by others",
    ],
    [
      "ADREPORT_CONFIG_DIR a link to another user's folder",
      (f) => {
        symlinkSync(chowned(f), `${f}-link`);
        return `${f}-link`;
      },
      `belongs to uid ${NOBODY}`,
    ],
  ];

  it.each(setups)("%s: exit 2 before the key is sent to its base-url", async (_label, spoil, message) => {
    const service = await countingServer();
    try {
      const folder = newConfigDir();
      plant(folder, service.url);
      const config = spoil(folder);
      const result = await cli(["report", "--from", "2026-10-01", "--to", "2026-10-02", "--retries", "0"], config, {
        env: { ADREPORT_API_KEY: KEY },
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^adreport: refusing the config (folder|file) /);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toMatch(/\nhint: (chmod go-w|if it is yours: chown)/);
      expect(service.requests()).toBe(0);
    } finally {
      service.close();
    }
  });

  it("a folder above the config folder that others can write is refused, and nothing is created", async () => {
    const open = newConfigDir();
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    const result = await cli(["keys", "add", "acme"], join(open, "adreport"), { input: KEY });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${open}, a folder above it, is mode 0777`);
    expect(existsSync(join(open, "adreport"))).toBe(false);
  });

  it("a symlinked config.json is neither read nor written through", async () => {
    const elsewhere = newConfigDir();
    plant(elsewhere, "http://127.0.0.1:9");
    chownSync(join(elsewhere, "config.json"), NOBODY, NOBODY);
    const before = readFileSync(join(elsewhere, "config.json"), "utf8");
    const config = newConfigDir();
    mkdirSync(config, { mode: 0o700 });
    symlinkSync(join(elsewhere, "config.json"), join(config, "config.json"));
    for (const args of [
      ["keys", "add", "acme"],
      ["keys", "list"],
      ["config", "set", "retries", "1"],
    ]) {
      const result = await cli(args, config, { input: KEY });
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(`refusing the config file ${join(config, "config.json")}: it is a symbolic link`);
    }
    expect(readFileSync(join(elsewhere, "config.json"), "utf8")).toBe(before);
    expect(lstatSync(join(config, "config.json")).isSymbolicLink()).toBe(true);
  });

  it("a shared 1777 folder is refused and keeps its sticky bit", async () => {
    const shared = newConfigDir();
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const result = await cli(["keys", "add", "acme"], shared, { input: KEY });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is mode 1777, writable by others");
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
    expect(existsSync(join(shared, "config.json"))).toBe(false);
  });

  it("a config folder inside a sticky shared folder (/tmp) is fine when it is the user's own", async () => {
    const shared = newConfigDir();
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const config = join(shared, "mine");
    expect((await cli(["keys", "add", "acme"], config, { input: KEY })).code).toBe(0);
    expect(statSync(config).mode & 0o777).toBe(0o700);
    expect((await cli(["keys", "show", "acme"], config)).code).toBe(0);
  });
});
