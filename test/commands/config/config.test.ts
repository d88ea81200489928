/**
 * `adreport config` in this process: settings and where each comes from, how they feed `report`, and the
 * config folder or file someone else could write, refused before a key is sent anywhere.
 */
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
import { describe, expect, it } from "vitest";
import { SETTING_NAMES } from "../../../src/config/settings";
import { FORMAT_NAMES } from "../../../src/core/formats";
import { configCli } from "../../helpers/config-cli";

const KEY = `adr_${"S3cr3tK3yMat3rial".repeat(2)}abcdefghi`;
const { cli, newConfigDir } = configCli(KEY);

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

  // issue 35: the box table went into pipes too.
  it("list: a box on a terminal; into a pipe, `setting<TAB>value<TAB>from` lines without a header", async () => {
    const config = newConfigDir();
    await cli(["keys", "add", "acme"], config, { input: KEY });
    expect((await cli(["config", "set", "delimiter", "tab"], config)).code).toBe(0);
    const piped = await cli(["config", "list"], config);
    expect(piped.code, piped.stderr).toBe(0);
    const lines = piped.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(SETTING_NAMES.length + 1);
    expect(lines).toContain("page-size\t1000\tdefault");
    expect(lines).toContain("delimiter\ttab\tconfig file");
    expect(lines).toContain("tz\t\tdefault");
    expect(lines).toContain("api-key\tadr_S3cr…fghi\tprofile");
    for (const line of lines) expect(line.split("\t")).toHaveLength(3);
    expect(piped.stdout).not.toMatch(/[┌│─]/);
    const boxed = await cli(["config", "list"], config, { outIsTTY: true });
    expect(boxed.stdout).toMatch(/^┌.*\n│ setting +│ value +│ from +│\n/);
    expect(boxed.stdout).toMatch(/│ tz +│ \(none\) +│ default +│/);
  });

  it.each([
    [["config", "set", "colour", "red"], `unknown setting "colour"; the settings are: ${SETTING_NAMES.join(", ")}`],
    [["config", "set", "format", "xml"], `format: expected one of ${FORMAT_NAMES.join(", ")}`],
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
