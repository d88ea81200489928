// `npm test`: type check, lint, build, the whole vitest suite against dist/, then the single-file binary
// (built while the suite runs) and the cases tagged `binary` run again against it: what only the binary
// shows (docs/development.md, "Tests"). Ends with one plain line, `N passed, N failed, N skipped (why)`,
// counting every test case of both runs plus the type check, the lint and the packaging as one case each.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const bin = (name) => join("node_modules", ".bin", name);
const extraArgs = process.argv.slice(2);
let passed = 0;
let failed = 0;
let ran = 0;
/** Skipped cases by reason. */
const skipped = new Map();

/** Runs a command to its end; `capture` keeps its output for later instead of printing it. */
function run(command, args, { env = {}, capture = false } = {}) {
  return new Promise((done) => {
    const child = spawn(command, args, {
      stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...env },
    });
    let output = "";
    if (capture) for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => done({ ok: false, output: `${output}${error.message}\n` }));
    child.on("close", (code) => done({ ok: code === 0, output }));
  });
}

async function step(label, command, args, env = {}) {
  process.stdout.write(`\n== ${label}\n`);
  return (await run(command, args, { env })).ok;
}

async function check(label, command, args) {
  if (await step(label, command, args)) passed += 1;
  else failed += 1;
}

/** A vitest run counted through test/helpers/summary-reporter.ts; `selected` says which skips are not skips. */
async function vitest(label, args, { env = {}, selected = () => true } = {}) {
  const summaryFile = resolve(".test-tmp", `summary-${label.replace(/\W+/g, "-")}.json`);
  mkdirSync(".test-tmp", { recursive: true });
  rmSync(summaryFile, { force: true });
  const reporters = ["--reporter=default", "--reporter=./test/helpers/summary-reporter.ts"];
  await step(label, bin("vitest"), ["run", ...reporters, ...args], { ...env, ADREPORT_TEST_SUMMARY: summaryFile });
  let summary;
  try {
    summary = JSON.parse(readFileSync(summaryFile, "utf8"));
  } catch {
    console.log(`${label}: vitest wrote no summary, counting it as failed`);
    failed += 1;
    return;
  }
  passed += summary.passed;
  failed += summary.failed + summary.otherFailures.length;
  ran += summary.passed + summary.failed;
  for (const other of summary.otherFailures) console.log(`${label}: failed outside its cases: ${other}`);
  for (const skip of summary.skipped) {
    if (!selected(skip)) continue;
    const why = skip.note ?? `skipped without a reason in ${skip.file}`;
    skipped.set(why, (skipped.get(why) ?? 0) + 1);
  }
}

/** The test files holding a case or group tagged `binary` (`{ tags: ["binary"] }`). */
function binaryTaggedFiles(dir = "test") {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => join(dir, file))
    .filter((file) => /tags: \[[^\]]*"binary"/.test(readFileSync(file, "utf8")));
}

await check("type check (tsc)", bin("tsc"), ["-p", "tsconfig.json", "--noEmit"]);
await check("lint (biome)", bin("biome"), ["check", "."]);
await check("import rules (scripts/import-rules.mjs)", process.execPath, ["scripts/import-rules.mjs"]);
if (!(await step("build (esbuild)", process.execPath, ["scripts/build.mjs"]))) {
  console.log(`\nthe build failed, so the suite cannot run\n${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}

// The binary needs the sources, not the suite's verdict: it is packaged while the suite runs, its output
// kept and printed after.
// ADREPORT_TEST_BINARY=0 leaves the binary out: it is built on Node.js 24 whatever Node runs this, so .ci/run
// builds and tests it on its first Node line only.
const withBinary = extraArgs.length === 0 && process.env.ADREPORT_TEST_BINARY !== "0";
const packaging = withBinary ? run(process.execPath, ["scripts/package.mjs"], { capture: true }) : undefined;
await vitest("tests (vitest)", extraArgs);
if (extraArgs.length === 0 && !withBinary)
  console.log("\n(no single-file binary and no binary pass: ADREPORT_TEST_BINARY=0)");

if (packaging) {
  process.stdout.write("\n== single-file binary (npm run package, made while the tests ran)\n");
  const packaged = await packaging;
  process.stdout.write(packaged.output);
  if (packaged.ok) {
    passed += 1;
    const binary = resolve("dist", `adreport-${process.platform}-${process.arch}`);
    await vitest("the cases tagged binary, against the binary", ["--tags-filter=binary", ...binaryTaggedFiles()], {
      env: { ADREPORT_TEST_BIN: binary },
      // The other cases of those files ran against dist/ above: left out here, not skipped.
      selected: (skip) => skip.tags.includes("binary"),
    });
  } else {
    failed += 1;
  }
}

if (ran === 0) {
  console.log("no test ran: counting that as a failure");
  failed += 1;
}
const skips = [...skipped].map(([why, count]) => `${count}: ${why}`);
const total = [...skipped.values()].reduce((sum, count) => sum + count, 0);
console.log(
  `\n${passed} passed, ${failed} failed, ${total} skipped${skips.length > 0 ? ` (${skips.join("; ")})` : ""}`,
);
process.exit(failed === 0 ? 0 : 1);
