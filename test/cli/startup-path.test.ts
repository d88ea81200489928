/**
 * What starting adreport loads (issue 23): `--version`, help and the refusal of a bad flag must stay near
 * `node -e 0`, so none of them may load the libraries of the commands that do work (zod, undici, fastify,
 * SQLite, the formatters) or the Node modules only those need. The built CLI runs under a module hook that
 * logs every ES module it loads (test/helpers/module-log.mjs); each chunk of dist/ it loaded is traced to
 * its sources through the chunk's source map. Needs `node scripts/build.mjs` first, as every spawned test.
 * bench/startup.ts measures the time these commands take.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp";

const ROOT = join(import.meta.dirname, "..", "..");
const DIST = join(ROOT, "dist");

/** Sources that only the commands doing work need: a chunk holding any of them is too much for a start. */
const HEAVY_SOURCES = [
  /node_modules\/(zod|undici|fastify|@fastify|better-sqlite3|pg|pg-copy-streams|chart\.js|cli-table3|csv-stringify|ora|conf|simple-ascii-chart|lru-cache)\//,
  /\bsrc\/(api|format|server|targets|transform|state)\//,
  // The contract's zod rules; its field names and time functions are plain code.
  /\bsrc\/contract\/(query|query-schema|response|openapi|recording)\.ts$/,
  /\bsrc\/config\/settings\.ts$/,
  /\bsrc\/cli\/memory\.ts$/,
];

/** Node modules an ES module imported on the start-up path would load beside what `node -e 0` does. */
const HEAVY_BUILTINS = ["node:crypto", "node:v8", "node:perf_hooks", "node:http", "node:https", "node:zlib"];

interface Loaded {
  code: number | null;
  stderr: string;
  /** Sources (as their source maps name them) of the dist/ chunks loaded. */
  sources: string[];
  builtins: string[];
}

function runLogged(args: readonly string[]): Loaded {
  const log = join(tempDir(), "modules.log");
  const result = spawnSync(
    process.execPath,
    ["--import", join(ROOT, "test", "helpers", "module-log.mjs"), join(ROOT, "bin", "adreport"), ...args],
    {
      encoding: "utf8",
      env: { PATH: process.env.PATH, ADREPORT_MODULE_LOG: log, ADREPORT_CONFIG_DIR: join(tempDir(), "config") },
    },
  );
  const urls = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
  const chunks = urls.filter((url) => url.startsWith("file:") && fileURLToPath(url).startsWith(`${DIST}/`));
  const sources = chunks.flatMap(
    (url) => (JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, "utf8")) as { sources: string[] }).sources,
  );
  return { code: result.status, stderr: result.stderr, sources, builtins: urls.filter((u) => u.startsWith("node:")) };
}

const START_UP: readonly (readonly [args: readonly string[], code: number])[] = [
  [["--version"], 0],
  [["--help"], 0],
  [["report", "--help"], 0],
  [["serve", "--help"], 0],
  [["report", "--format", "nope"], 2],
  [["--no-such-flag"], 2],
  [["report", "--no-such-flag"], 2],
  [["report", "--from", "garbage"], 2],
  [["report", "--from", "2026-11-01", "--to", "2026-13-45"], 2],
];

describe.skipIf(process.env.ADREPORT_TEST_BIN !== undefined)("what a start loads (the built dist/)", () => {
  it.each(START_UP)("adreport %j loads none of the commands' libraries", (args, code) => {
    const loaded = runLogged(args);
    expect(loaded.code, loaded.stderr).toBe(code);
    expect(loaded.sources.length).toBeGreaterThan(0);
    expect(loaded.sources.filter((source) => HEAVY_SOURCES.some((heavy) => heavy.test(source)))).toEqual([]);
    expect(loaded.builtins.filter((name) => HEAVY_BUILTINS.includes(name))).toEqual([]);
  });

  it("answers --version without loading commander", () => {
    const loaded = runLogged(["--version"]);
    expect(loaded.sources.filter((source) => source.includes("node_modules/commander/"))).toEqual([]);
  });

  it.each([
    [["--help"], []],
    [["--no-such-flag"], []],
    [["report", "--help"], ["report"]],
    [["report", "--from", "garbage"], ["report"]],
    [["serve", "--help"], ["serve"]],
  ] as const)("adreport %j defines in full only the commands it names: %j", (args, named) => {
    const loaded = runLogged(args);
    const defined = loaded.sources.flatMap((source) => /\bsrc\/commands\/(\w+)\/command\.ts$/.exec(source)?.[1] ?? []);
    expect(defined.sort()).toEqual([...named]);
  });

  it("sees a heavy library when a command loads one (the check itself works)", () => {
    const loaded = runLogged(["completion", "bash"]);
    expect(loaded.code).toBe(0);
    expect(loaded.sources.some((source) => /node_modules\/zod\//.test(source))).toBe(true);
  });
});
