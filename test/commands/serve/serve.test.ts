/**
 * `adreport serve` and its operator verbs in this process: real SQLite files and PostgreSQL databases, the server on a real port
 * of 127.0.0.1, stopped through the signal handlers the command registers. Each case makes the database
 * it changes; the session fixture, built once, is only read.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testBackends } from "../../helpers/backends";
import { httpGet } from "../../helpers/http";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { serveInProcess } from "../../helpers/serve-in-process";
import { tempDir } from "../../helpers/temp";

const dir = tempDir();
describe.each(await testBackends())("on $name", (backend) => {
  beforeEach((context) => backend.skipUnavailable(context));
  /** A database with 10 days of demo data and one key for Acme Outdoor from 127.0.0.1 (key id 1). */
  async function session(): Promise<{ db: string; key: string }> {
    const db = await backend.newDb();
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    expect((await runInProcess(["serve", "demo", "--db", db, "--days", "10", "--end", "2026-11-01"])).code).toBe(0);
    const issued = await runInProcess([
      "serve",
      "key",
      "issue",
      "--db",
      db,
      "--advertiser",
      "Acme Outdoor",
      "--ip",
      "127.0.0.1",
    ]);
    expect(issued.code).toBe(0);
    return { db, key: issued.stdout.trim() };
  }

  // Read by every case that does not change it; after the file, its keys are as they were.
  let shared: { db: string; key: string };
  let sharedKeys = "";
  const keyList = async () => (await runInProcess(["serve", "key", "list", "--db", shared.db, "--json"])).stdout;
  beforeAll(async () => {
    if (backend.unavailable) return;
    shared = await session();
    sharedKeys = await keyList();
  });
  afterAll(async () => {
    if (backend.unavailable) return;
    expect(await keyList()).toBe(sharedKeys);
  });

  const REPORT = "/v1/report?from=2026-10-25&to=2026-10-31&metrics=views";

  describe("advertiser names from a load file", () => {
    it("are shown with their control characters escaped by key issue and key list, never sent to the terminal raw", async () => {
      const hostileDb = await backend.newDb();
      const advertiser = "Evil\u001b]0;owned\u0007\u009b31m\u202eCorp\nline";
      const file = join(dir, "hostile.ndjson");
      writeFileSync(
        file,
        `${JSON.stringify({ advertiser, campaign_id: 1, campaign: "c", ad_id: 10, ad: "a", hour: "2026-11-01T13:00:00Z", views: 1, clicks: 0, bot_clicks: 0, spending: 0, conversions: 0 })}\n`,
      );
      expect((await runInProcess(["serve", "init", "--db", hostileDb])).code).toBe(0);
      expect((await runInProcess(["serve", "load", "--db", hostileDb, file])).code).toBe(0);
      const issued = await runInProcess(["serve", "key", "issue", "--db", hostileDb, "--advertiser", advertiser]);
      expect(issued.code).toBe(0);
      const list = await runInProcess(["serve", "key", "list", "--db", hostileDb]);
      expect(list.code).toBe(0);
      for (const output of [issued.stderr, list.stdout]) {
        for (const raw of ["\u001b", "\u0007", "\u009b", "\u202e"]) expect(output).not.toContain(raw);
        expect(output).toContain("\\x9b31m\\u202eCorp");
      }
      expect(list.stdout).toContain("Evil\\x1b]0;owned\\x07");
      expect(list.stdout.trim().split("\n")).toHaveLength(5);
    });
  });

  describe("an operator session", () => {
    it("creates a database, fills it with demo data and issues a key printed once on stdout", async () => {
      const db = await backend.newDb();
      expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
      const demo = await runInProcess(["serve", "demo", "--db", db, "--days", "10", "--end", "2026-11-01"]);
      expect(demo.code).toBe(0);
      expect(demo.stdout).toBe("");
      const issued = await runInProcess([
        "serve",
        "key",
        "issue",
        "--db",
        db,
        "--advertiser",
        "Acme Outdoor",
        "--ip",
        "127.0.0.1",
      ]);
      expect(issued.code).toBe(0);
      const key = issued.stdout.trim();
      expect(key).toMatch(/^adr_[A-Za-z0-9_-]{43}$/);
      expect(issued.stderr).toContain("shown only this once");
      expect(issued.stderr).not.toContain(key);
    });

    it("lists keys without showing them", async () => {
      const list = await runInProcess(["serve", "key", "list", "--db", shared.db]);
      expect(list.code).toBe(0);
      expect(list.stdout).toContain("Acme Outdoor");
      expect(list.stdout).not.toContain(shared.key);
      const json = await runInProcess(["serve", "key", "list", "--db", shared.db, "--json"]);
      expect(JSON.parse(json.stdout.split("\n")[0] as string)).toMatchObject({
        id: 1,
        status: "active",
        ips: ["127.0.0.1"],
      });
    });

    it("serves on the port it prints, logs each request without the key, and stops cleanly on SIGTERM", async () => {
      const { key } = shared;
      const serve = await serveInProcess(["--db", shared.db]);
      expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await httpGet(`${serve.url}${REPORT}`, { key })).status).toBe(200);
      await httpGet(`${serve.url}${REPORT}&api_key=${key}`, { key });
      const stopped = await serve.stop("SIGTERM");
      expect(stopped.code).toBe(0);
      expect(stopped.stdout).toBe(`${serve.url}\n`);
      const log = stopped.stderr;
      expect(log).toMatch(/GET \/v1\/report\?from=2026-10-25.* 200 /);
      expect(log).toContain("api_key=***");
      expect(log).not.toContain(key);
      expect(log).not.toContain(key.slice(4, 24));
    });

    it("rotates: the old key stops, the new one works; ip add and remove change the whitelist", async () => {
      const { db, key } = await session();
      const rotated = await runInProcess(["serve", "key", "rotate", "--db", db, "1"]);
      expect(rotated.code).toBe(0);
      const fresh = rotated.stdout.trim();
      expect(fresh).not.toBe(key);
      expect((await runInProcess(["serve", "ip", "add", "--db", db, "2", "::1", "10.0.0.0/8"])).stderr).toContain(
        "::1",
      );
      const removed = await runInProcess(["serve", "ip", "remove", "--db", db, "2", "10.0.0.0/8"]);
      expect(removed.code).toBe(0);
      expect(removed.stderr).not.toContain("10.0.0.0/8");
      const serve = await serveInProcess(["--db", db, "--quiet"]);
      expect((await httpGet(`${serve.url}${REPORT}`, { key })).status).toBe(401);
      expect((await httpGet(`${serve.url}${REPORT}`, { key: fresh })).status).toBe(200);
      const stopped = await serve.stop("SIGINT");
      expect(stopped.code).toBe(0);
      expect(stopped.stderr).not.toContain("GET /v1/report");
    });
  });

  describe("operator mistakes are exit 2 with one clear line", () => {
    it("a bad NDJSON line names the file and line", async () => {
      const db = await backend.newDb();
      expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
      const bad = join(dir, "bad.ndjson");
      writeFileSync(bad, '{"advertiser":"A"}\n');
      const result = await runInProcess(["serve", "load", "--db", db, bad]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^adreport: .*bad\.ndjson:1: /);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    });

    it("a port in use", async () => {
      const first = await serveInProcess(["--db", shared.db, "--quiet"]);
      const port = new URL(first.url).port;
      const second = await runInProcess(["serve", "--db", shared.db, "--port", port]);
      expect(second.code).toBe(2);
      expect(second.stderr).toContain("already in use");
      expect((await first.stop()).code).toBe(0);
    });

    it.each([
      [["serve", "key", "revoke", "99"], "no key with id 99"],
      [["serve", "ip", "add", "1", "300.1.1.1"], '"300.1.1.1" is not an IPv4 or IPv6 address'],
      [["serve", "key", "issue", "--advertiser", "Nobody"], 'no advertiser named "Nobody"'],
      [["serve", "--port", "99999"], "'99999' is invalid"],
    ])("%j: an unknown key id, a bad IP, an unknown advertiser, a bad port", async (args, reason) => {
      const result = await runInProcess([...args, "--db", shared.db]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^adreport: /);
      expect(result.stderr).toContain(reason);
    });
  });
});

describe("a missing SQLite database", () => {
  it("a missing database", async () => {
    const result = await runInProcess(["serve", "--db", join(dir, "nope.db")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("nope.db");
    expect(existsSync(join(dir, "nope.db"))).toBe(false);
  });
});

describe("a file that is not an adreport database", () => {
  it("is exit 2 naming the file, for serving and for every operator verb", async () => {
    const junk = join(dir, "junk.db");
    writeFileSync(junk, randomBytes(64 * 1024));
    const ndjson = join(dir, "one.ndjson");
    writeFileSync(ndjson, "");
    for (const args of [
      ["serve", "load", "--db", junk, ndjson],
      ["serve", "key", "list", "--db", junk],
      ["serve", "key", "issue", "--db", junk, "--advertiser", "Acme Outdoor"],
      ["serve", "init", "--db", junk],
      ["serve", "--db", junk, "--port", "0"],
    ]) {
      const result = await runInProcess(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(`${junk} is not an adreport database`);
      expect(result.stderr).not.toContain("unexpected");
    }
  });
});

describe("init and demo on a path that is not theirs to fill", () => {
  it("leave another program's SQLite database byte for byte as it was, exit 2", async () => {
    const foreign = join(dir, "other-program.db");
    const other = new Database(foreign);
    other.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL); INSERT INTO invoices VALUES (1, 9.5)");
    other.close();
    const before = readFileSync(foreign);
    for (const args of [
      ["serve", "init", "--db", foreign],
      ["serve", "demo", "--db", foreign, "--days", "1"],
    ]) {
      const result = await runInProcess(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(`${foreign} is not an adreport database`);
    }
    expect(readFileSync(foreign).equals(before)).toBe(true);
  });

  it("name a device SQLite cannot use as an operator mistake, not an unexpected error", async () => {
    const result = await runInProcess(["serve", "init", "--db", "/dev/null"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^adreport: cannot use \/dev\/null as a database: /);
    expect(result.stderr).not.toContain("unexpected");
  });
});

describe("serve --help", () => {
  it("documents the limits and the new fault kinds", async () => {
    const help = (await runInProcess(["serve", "start", "--help"])).stdout;
    for (const flag of [
      "--cache-mb",
      "--max-connections",
      "--header-timeout",
      "--auth-failure-limit",
      "--shutdown-timeout",
      "reset-body",
      "hang",
    ]) {
      expect(help).toContain(flag);
    }
  });
});
