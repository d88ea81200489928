/**
 * One convention for every command that prints records: `--format json` is one document (an array for a
 * list), `--format ndjson` one record a line, field names snake_case; the old `--json` still works as
 * `--format ndjson` with a note on stderr; "every profile" is `--all-profiles`, `keys test --all` its old name.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { startTestService } from "../../helpers/serve";
import type { CliResult } from "../../helpers/spawn-cli";
import { tempDir } from "../../helpers/temp";

const service = await startTestService({ keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }] });
const KEY = service.keys[0] as string;
const profile = (account?: string) => ({
  "api-key": KEY,
  "base-url": service.url,
  ...(account ? { account } : {}),
});
const CONFIG = configDirWith({ profile: "acme" }, { acme: profile("Acme Outdoor GmbH"), globex: profile() });
const run = (args: string[]) => runInProcess(args, { env: { ADREPORT_CONFIG_DIR: CONFIG } });
const lines = (result: CliResult) =>
  result.stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));

describe("--format json | ndjson wherever records are printed", () => {
  it.each([
    [["keys", "list"], 2],
    [["config", "list"], 0],
    [["keys", "test", "--all-profiles"], 2],
    [["serve", "key", "list", "--db", service.dbPath], 1],
  ])("%j: json is one array, ndjson the same records a line each, --json the ndjson with a note", async (args, n) => {
    const json = await run([...args, "--format", "json"]);
    const ndjson = await run([...args, "--format", "ndjson"]);
    const old = await run([...args, "--json"]);
    for (const result of [json, ndjson, old]) expect(result.code, result.stderr).toBe(0);
    const array = JSON.parse(json.stdout);
    expect(Array.isArray(array)).toBe(true);
    if (n > 0) expect(array).toHaveLength(n);
    expect(lines(ndjson)).toEqual(array);
    expect(old.stdout).toBe(ndjson.stdout);
    expect(old.stderr).toContain("adreport: note: --json is deprecated; it is --format ndjson");
    expect(ndjson.stderr).not.toContain("note");
    for (const record of array) for (const field of Object.keys(record)) expect(field).toMatch(/^[a-z_]+$|^api-key$/);
  });

  it("serve key list: snake_case fields (were replacedBy, createdAt, expiresAt), times in ISO 8601", async () => {
    const [key] = JSON.parse((await run(["serve", "key", "list", "--db", service.dbPath, "--format", "json"])).stdout);
    expect(Object.keys(key)).toEqual([
      "id",
      "advertiser",
      "key",
      "status",
      "replaced_by",
      "created_at",
      "expires_at",
      "ips",
    ]);
    expect(key).toMatchObject({ id: 1, advertiser: "Acme Outdoor", status: "active", replaced_by: null });
    expect(key.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(key.key).not.toBe(KEY);
  });

  it("keys list shows each profile's account; state list json is [] with no jobs, ndjson nothing", async () => {
    expect(JSON.parse((await run(["keys", "list", "--format", "json"])).stdout)[0]).toMatchObject({
      profile: "acme",
      account: "Acme Outdoor GmbH",
      base_url: service.url,
      default: true,
    });
    const env = { ADREPORT_CONFIG_DIR: join(tempDir(), "config") };
    expect((await runInProcess(["state", "list", "--format", "json"], { env })).stdout).toBe("[]\n");
    const none = await runInProcess(["state", "list", "--format", "ndjson"], { env });
    expect(none.stdout).toBe("");
    expect(none.stderr).toBe("");
  });

  it("keys test of one profile: one object; keys request: one object", async () => {
    const one = await run(["keys", "test", "--format", "json"]);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual({ profile: "acme", outcome: "ok", error: null, seen_address: null });
    const refused = await runInProcess(["keys", "test", "globex", "--format", "json"], {
      env: { ADREPORT_CONFIG_DIR: configDirWith({}, { globex: { ...profile(), "api-key": `adr_${"z".repeat(43)}` } }) },
    });
    expect(refused.code).toBe(3);
    expect(JSON.parse(refused.stdout)).toMatchObject({ profile: "globex", outcome: "key refused" });
    expect(refused.stderr).toContain("the service refused the key");
    const request = await run(["keys", "request", "rotate", "--format", "json"]);
    expect(JSON.parse(request.stdout)).toEqual({ account: "Acme Outdoor GmbH", request: "rotate_key", ips: [] });
  });

  it("--json with --format is refused; keys test --all still works as --all-profiles, with a note", async () => {
    const both = await run(["keys", "list", "--json", "--format", "json"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--json is the old name of --format ndjson");
    const old = await run(["keys", "test", "--all"]);
    const now = await run(["keys", "test", "--all-profiles"]);
    expect(old.code, old.stderr).toBe(0);
    expect(old.stdout).toBe(now.stdout);
    expect(old.stdout).toBe("acme: ok\nglobex: ok\n");
    expect(old.stderr).toContain("--all is now --all-profiles");
    const help = (await run(["keys", "test", "--help"])).stdout;
    expect(help).toContain("--all-profiles");
    expect(help).not.toMatch(/--all\b(?!-)/);
    expect(help).not.toContain("--json");
  });
});
