/**
 * What starting adreport loads (issue 23): `--version`, help and the refusal of a bad flag must stay near
 * `node -e 0`. bin/adreport asks the front first (dist/front.cjs, src/cli/front.ts): one CommonJS file of
 * commander and the flag definitions, which must answer those lines without loading any ES module of
 * dist/, carry none of the libraries of the commands that do work (zod, undici, fastify, SQLite, the
 * formatters) and require none of the Node modules only those need; what it answers must be exactly what
 * the full build answers. The full build (the ES module chunks, which every other line is handed to) must
 * stay lazy as well: its start loads only the chunks the line needs. The CLI runs under a hook that logs
 * every module it loads (test/helpers/module-log.mjs); each file of dist/ is traced to its sources through
 * its source map. Needs `node scripts/build.mjs` first, as every spawned test. bench/startup.ts measures
 * the time these commands take.
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp";

const ROOT = join(import.meta.dirname, "..", "..");
const DIST = join(ROOT, "dist");

/** Sources that only the commands doing work need: a chunk holding any of them is too much for a start. */
const HEAVY_SOURCES = [
  /node_modules\/(zod|undici|fastify|@fastify|better-sqlite3|pg|pg-copy-streams|chart\.js|cli-table3|csv-stringify|ora|conf|simple-ascii-chart|lru-cache|hyparquet|hyparquet-writer)\//,
  /\bsrc\/(api|format|server|targets|transform|state)\//,
  // The contract's zod rules; its field names and time functions are plain code.
  /\bsrc\/contract\/(query|query-schema|response|openapi|recording)\.ts$/,
  /\bsrc\/config\/settings\.ts$/,
  /\bsrc\/cli\/memory\.ts$/,
];

/** Node modules the start-up path would load beside what `node -e 0` does. */
const HEAVY_BUILTINS = ["crypto", "v8", "perf_hooks", "http", "https", "zlib"].flatMap((name) => [
  name,
  `node:${name}`,
]);

interface Loaded {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Sources (as their source maps name them) of the ES module chunks of dist/ loaded. */
  sources: string[];
  /** What CommonJS code required (bin/adreport and the front), and the Node modules ES modules imported. */
  required: string[];
}

const FRONT = join(DIST, "front.cjs");
/** The ES module build alone, as bin/adreport runs the lines the front hands over. */
const FULL_BUILD = join(ROOT, "test", "helpers", "full-build.mjs");

function sourcesOf(file: string): string[] {
  return (JSON.parse(readFileSync(`${file}.map`, "utf8")) as { sources: string[] }).sources;
}

/**
 * One run per script and line, its result shared by the cases that ask for it again (each START_UP line is
 * run by five of them): a start costs a process. Every run gets the same empty config folder, as the front
 * and the full build must for their answers to be compared; none of these lines writes into it.
 */
const runs = new Map<string, Loaded>();
let config: string | undefined;

function runLogged(args: readonly string[], script = join(ROOT, "bin", "adreport")): Loaded {
  const key = JSON.stringify([script, args]);
  const done = runs.get(key);
  if (done) return done;
  config ??= tempDir();
  const loaded = spawnLogged(args, script, config);
  runs.set(key, loaded);
  return loaded;
}

function spawnLogged(args: readonly string[], script: string, config: string): Loaded {
  const log = join(tempDir(), "modules.log");
  const result = spawnSync(
    process.execPath,
    ["--import", join(ROOT, "test", "helpers", "module-log.mjs"), script, ...args],
    {
      encoding: "utf8",
      env: { PATH: process.env.PATH, ADREPORT_MODULE_LOG: log, ADREPORT_CONFIG_DIR: join(config, "config") },
    },
  );
  const lines = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
  const chunks = lines.filter((url) => url.startsWith("file:") && fileURLToPath(url).startsWith(`${DIST}/`));
  return {
    code: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    sources: chunks.flatMap((url) => sourcesOf(fileURLToPath(url))),
    required: [
      ...lines.flatMap((line) => (line.startsWith("require:") ? [line.slice("require:".length)] : [])),
      ...lines.filter((line) => line.startsWith("node:")),
    ],
  };
}

const heavy = (sources: readonly string[]) => sources.filter((source) => HEAVY_SOURCES.some((h) => h.test(source)));

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
  [["report", "--dims", "campaign,nope"], 2],
  [["report", "--granularity", "fortnight"], 2],
  [["report", "--metrics", "views,bogus"], 2],
  [["report", "--campaign", "x"], 2],
  [["report", "--concurrency", "0"], 2],
  [["report", "--tz", "Mars/Base"], 2],
  [["report", "--timeout", "5x"], 2],
  [["report", "--dim", "campaign"], 2],
  [["report", "--format", "xlsx"], 2],
];

/** Lines the front answers, beyond START_UP: help of every command, suggestions, refused values. */
const ANSWERED: readonly (readonly string[])[] = [
  ...START_UP.map(([args]) => args),
  [],
  ["-V"],
  ["help"],
  ["help", "report"],
  ["help", "serve", "key", "issue"],
  ["help", "nonsense"],
  ["help", "format"],
  ["help", "keys", "nonsense"],
  ["help", "keys", "tset"],
  ["keys", "--help"],
  ["keys", "add", "--help"],
  ["config", "--help"],
  ["state", "--help"],
  ["verify", "--help"],
  ["serve", "key", "--help"],
  ["completion", "--help"],
  ["reprot"],
  ["report", "--limit", "-3"],
  ["serve", "--port", "http"],
];

/**
 * Refused by a command's action (a rule between flags, a setting), or help that reads a file: the front hands
 * them over, and says nothing.
 */
const HANDED_OVER: readonly (readonly string[])[] = [
  ["report", "--dims", "keyword,date"],
  ["report", "--delimiter", "ab"],
  ["verify"],
  ["help", "cron"],
];

describe.skipIf(process.env.ADREPORT_TEST_BIN !== undefined)("what a start loads (the built dist/)", () => {
  it("the front carries commander and the flag definitions, none of the commands' libraries", () => {
    const sources = sourcesOf(FRONT);
    expect(sources.some((source) => source.endsWith("src/commands/report/flags.ts"))).toBe(true);
    expect(sources.some((source) => source.includes("node_modules/commander/"))).toBe(true);
    expect(heavy(sources)).toEqual([]);
  });

  it.each(START_UP)("adreport %j is answered by the front alone", (args, code) => {
    const loaded = runLogged(args);
    expect(loaded.code, loaded.stderr).toBe(code);
    expect(loaded.required).toContain("../dist/front.cjs");
    expect(loaded.sources).toEqual([]);
    expect(loaded.required.filter((name) => HEAVY_BUILTINS.includes(name))).toEqual([]);
  });

  it.each([
    ...ANSWERED.map((args) => [args, "answered"] as const),
    ...HANDED_OVER.map((args) => [args, "handed over"] as const),
  ])("adreport %j: %s by the front, exactly as the full build answers it", (args, how) => {
    const front = runLogged(args);
    const full = runLogged(args, FULL_BUILD);
    expect(front.sources.length === 0 ? "answered" : "handed over").toBe(how);
    expect({ code: front.code, stdout: front.stdout, stderr: front.stderr }).toEqual({
      code: full.code,
      stdout: full.stdout,
      stderr: full.stderr,
    });
  });

  // Standard error on a full disk: the full build's process.stderr fails the process with 1.
  it.each([[["--no-such-flag"]], [[]], [["help", "nonsense"]], [["report", "--from", "garbage"]]])(
    "adreport %j 2>/dev/full: the front ends it with the full build's code",
    (args) => {
      const env = { PATH: process.env.PATH, ADREPORT_CONFIG_DIR: join(tempDir(), "config") };
      const withErrFull = (script: string) => {
        const device = openSync("/dev/full", "w");
        try {
          const run = spawnSync(process.execPath, [script, ...args], { env, stdio: ["ignore", "pipe", device] });
          return { code: run.status, stdout: String(run.stdout) };
        } finally {
          closeSync(device);
        }
      };
      const front = withErrFull(join(ROOT, "bin", "adreport"));
      expect(front).toEqual(withErrFull(FULL_BUILD));
      expect(front.code).toBe(1);
    },
  );

  it.each(START_UP)("the full build answers adreport %j loading none of the commands' libraries", (args, code) => {
    const loaded = runLogged(args, FULL_BUILD);
    expect(loaded.code, loaded.stderr).toBe(code);
    expect(loaded.sources.length).toBeGreaterThan(0);
    expect(heavy(loaded.sources)).toEqual([]);
    expect(loaded.required.filter((name) => HEAVY_BUILTINS.includes(name))).toEqual([]);
  });

  it("the full build answers --version without loading commander", () => {
    const loaded = runLogged(["--version"], FULL_BUILD);
    expect(loaded.sources.filter((source) => source.includes("node_modules/commander/"))).toEqual([]);
  });

  it.each([
    [["--help"], []],
    [["--no-such-flag"], []],
    [["report", "--help"], ["report"]],
    [["report", "--from", "garbage"], ["report"]],
    [["serve", "--help"], ["serve"]],
  ] as const)("the full build for adreport %j defines in full only the commands it names: %j", (args, named) => {
    const loaded = runLogged(args, FULL_BUILD);
    const defined = loaded.sources.flatMap((source) => /\bsrc\/commands\/(\w+)\/command\.ts$/.exec(source)?.[1] ?? []);
    expect(defined.sort()).toEqual([...named]);
  });

  it("runs a report line the front parsed with its flags, without commander or the flag definitions a second time", () => {
    // No key anywhere: the action runs (the full build's part) and refuses, as it would after a parse of its own.
    const loaded = runLogged(["report", "--dims", "campaign", "--from", "2026-10-01", "--to", "2026-10-31"]);
    expect(loaded.stderr).toMatch(/^adreport: no API key\nhint: /);
    expect(loaded.code).toBe(3);
    expect(loaded.sources.some((source) => source.endsWith("src/commands/report/action.ts"))).toBe(true);
    expect(loaded.sources.filter((source) => source.includes("node_modules/commander/"))).toEqual([]);
    expect(loaded.sources.filter((source) => /\bsrc\/commands\/report\/(flags|command)\.ts$/.test(source))).toEqual([]);
  });

  it("hands a command that does work to the full build, which loads its libraries (the check itself works)", () => {
    const loaded = runLogged(["completion", "bash"]);
    expect(loaded.code).toBe(0);
    expect(loaded.required).toContain("../dist/front.cjs");
    expect(loaded.sources.some((source) => /node_modules\/zod\//.test(source))).toBe(true);
  });
});
