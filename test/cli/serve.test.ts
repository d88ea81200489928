/** `adreport serve` and its operator verbs, as a user runs them: the real CLI in a child process. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, startCliServe } from "../helpers/cli";
import { httpGet } from "../helpers/http";
import { connected, rawRequest } from "../helpers/raw-socket";
import { tempDir } from "../helpers/temp";

const dir = tempDir();
const db = join(dir, "cli.db");

describe("advertiser names from a load file", () => {
  it("are shown with their control characters escaped by key issue and key list, never sent to the terminal raw", async () => {
    const hostileDb = join(dir, "hostile.db");
    const advertiser = "Evil\u001b]0;owned\u0007\u009b31m\u202eCorp\nline";
    const file = join(dir, "hostile.ndjson");
    writeFileSync(
      file,
      `${JSON.stringify({ advertiser, campaign_id: 1, campaign: "c", ad_id: 10, ad: "a", hour: "2026-11-01T13:00:00Z", views: 1, clicks: 0, bot_clicks: 0, spending: 0, conversions: 0 })}\n`,
    );
    expect((await runCli(["serve", "init", "--db", hostileDb])).code).toBe(0);
    expect((await runCli(["serve", "load", "--db", hostileDb, file])).code).toBe(0);
    const issued = await runCli(["serve", "key", "issue", "--db", hostileDb, "--advertiser", advertiser]);
    expect(issued.code).toBe(0);
    const list = await runCli(["serve", "key", "list", "--db", hostileDb]);
    expect(list.code).toBe(0);
    for (const output of [issued.stderr, list.stdout]) {
      for (const raw of ["\u001b", "\u0007", "\u009b", "\u202e"]) expect(output).not.toContain(raw);
      expect(output).toContain("\\x9b31m\\u202eCorp");
    }
    expect(list.stdout).toContain("Evil\\x1b]0;owned\\x07");
    expect(list.stdout.trim().split("\n")).toHaveLength(5);
  });
});

describe("a whole operator session", () => {
  let key = "";

  it("creates a database, fills it with demo data and issues a key printed once on stdout", async () => {
    expect((await runCli(["serve", "init", "--db", db])).code).toBe(0);
    const demo = await runCli(["serve", "demo", "--db", db, "--days", "10"]);
    expect(demo.code).toBe(0);
    expect(demo.stdout).toBe("");
    const issued = await runCli([
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
    key = issued.stdout.trim();
    expect(key).toMatch(/^adr_[A-Za-z0-9_-]{43}$/);
    expect(issued.stderr).toContain("shown only this once");
    expect(issued.stderr).not.toContain(key);
  });

  it("lists keys without showing them", async () => {
    const list = await runCli(["serve", "key", "list", "--db", db]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("Acme Outdoor");
    expect(list.stdout).not.toContain(key);
    const json = await runCli(["serve", "key", "list", "--db", db, "--json"]);
    expect(JSON.parse(json.stdout.split("\n")[0] as string)).toMatchObject({
      id: 1,
      status: "active",
      ips: ["127.0.0.1"],
    });
  });

  it("serves on the port it prints, logs each request without the key, and stops cleanly on SIGTERM", async () => {
    const serve = await startCliServe(["--db", db]);
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const result = await httpGet(`${serve.url}/v1/report?from=2026-10-25&to=2026-10-31&metrics=views`, { key });
    expect(result.status).toBe(200);
    await httpGet(`${serve.url}/v1/report?from=2026-10-25&to=2026-10-31&metrics=views&api_key=${key}`, { key });
    expect(await serve.stop("SIGTERM")).toBe(0);
    const log = serve.stderr();
    expect(log).toMatch(/GET \/v1\/report\?from=2026-10-25.* 200 /);
    expect(log).toContain("api_key=***");
    expect(log).not.toContain(key);
    expect(log).not.toContain(key.slice(4, 24));
  });

  it("rotates: the old key stops, the new one works; ip add and remove change the whitelist", async () => {
    const rotated = await runCli(["serve", "key", "rotate", "--db", db, "1"]);
    expect(rotated.code).toBe(0);
    const fresh = rotated.stdout.trim();
    expect(fresh).not.toBe(key);
    expect((await runCli(["serve", "ip", "add", "--db", db, "2", "::1", "10.0.0.0/8"])).stderr).toContain("::1");
    const removed = await runCli(["serve", "ip", "remove", "--db", db, "2", "10.0.0.0/8"]);
    expect(removed.code).toBe(0);
    expect(removed.stderr).not.toContain("10.0.0.0/8");
    const serve = await startCliServe(["--db", db, "--quiet"]);
    const url = `${serve.url}/v1/report?from=2026-10-25&to=2026-10-31&metrics=views`;
    expect((await httpGet(url, { key })).status).toBe(401);
    expect((await httpGet(url, { key: fresh })).status).toBe(200);
    expect(await serve.stop("SIGINT")).toBe(0);
    expect(serve.stderr()).not.toContain("GET /v1/report");
  });
});

describe("operator mistakes are exit 2 with one clear line", () => {
  it("a bad NDJSON line names the file and line", async () => {
    const bad = join(dir, "bad.ndjson");
    await import("node:fs").then((fs) => fs.writeFileSync(bad, '{"advertiser":"A"}\n'));
    const result = await runCli(["serve", "load", "--db", db, bad]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^adreport: .*bad\.ndjson:1: /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("a missing database", async () => {
    const result = await runCli(["serve", "--db", join(dir, "nope.db")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("nope.db");
    expect(existsSync(join(dir, "nope.db"))).toBe(false);
  });

  it("a port in use", async () => {
    const first = await startCliServe(["--db", db, "--quiet"]);
    const port = new URL(first.url).port;
    const second = await runCli(["serve", "--db", db, "--port", port]);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain("already in use");
    await first.stop();
  });

  it("an unknown key id, a bad IP, an unknown advertiser", async () => {
    for (const args of [
      ["serve", "key", "revoke", "--db", db, "99"],
      ["serve", "ip", "add", "--db", db, "2", "300.1.1.1"],
      ["serve", "key", "issue", "--db", db, "--advertiser", "Nobody"],
      ["serve", "--db", db, "--port", "99999"],
    ]) {
      const result = await runCli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(/^adreport: /);
    }
  });
});

describe("a file that is not an adreport database", () => {
  it("is exit 2 naming the file, for serving and for every operator verb", async () => {
    const { randomBytes } = await import("node:crypto");
    const { writeFileSync } = await import("node:fs");
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
      const result = await runCli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(`${junk} is not an adreport database`);
      expect(result.stderr).not.toContain("unexpected");
    }
  });
});

describe("init and demo on a path that is not theirs to fill", () => {
  it("leave another program's SQLite database byte for byte as it was, exit 2", async () => {
    const { default: Database } = await import("better-sqlite3");
    const foreign = join(dir, "other-program.db");
    const other = new Database(foreign);
    other.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL); INSERT INTO invoices VALUES (1, 9.5)");
    other.close();
    const before = readFileSync(foreign);
    for (const args of [
      ["serve", "init", "--db", foreign],
      ["serve", "demo", "--db", foreign, "--days", "1"],
    ]) {
      const result = await runCli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(`${foreign} is not an adreport database`);
    }
    expect(readFileSync(foreign).equals(before)).toBe(true);
  });

  it("name a device SQLite cannot use as an operator mistake, not an unexpected error", async () => {
    const result = await runCli(["serve", "init", "--db", "/dev/null"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^adreport: cannot use \/dev\/null as a database: /);
    expect(result.stderr).not.toContain("unexpected");
  });
});

describe("SIGTERM with connections that never finish", () => {
  it("exits 0 after --shutdown-timeout, with an idle and a half-sent connection open", async () => {
    const serve = await startCliServe(["--db", db, "--quiet", "--shutdown-timeout", "0.5"]);
    const idle = rawRequest(serve.url, "");
    const half = rawRequest(serve.url, "GET /v1/report HTTP/1.1\r\nHost: localhost\r\n");
    await Promise.all([connected(idle), connected(half)]);
    expect((await httpGet(`${serve.url}/nowhere`)).status).toBe(404);
    expect(await serve.stop("SIGTERM")).toBe(0);
    await Promise.all([idle.ended, half.ended]);
  });

  it("exits 0 after --shutdown-timeout with a request held by --faults hang", async () => {
    const serve = await startCliServe(["--db", db, "--faults", "hang:1", "--shutdown-timeout", "0.5"]);
    const held = rawRequest(serve.url, "GET /v1/report HTTP/1.1\r\nHost: localhost\r\n\r\n");
    await connected(held);
    // Whether the request was read before the signal cannot be seen from outside (a held request logs
    // nothing): it is held and never answered, or answered 503 as shutdown began. Either way serve ends.
    expect(await serve.stop("SIGTERM")).toBe(0);
    expect((await held.ended).data).not.toMatch(/^HTTP\/1\.1 200/);
  });
});

describe("serve --help", () => {
  it("documents the limits and the new fault kinds", async () => {
    const help = (await runCli(["serve", "start", "--help"])).stdout;
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
