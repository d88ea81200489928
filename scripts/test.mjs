// `npm test`: type check, lint, build, the whole vitest suite, then the single-file binary built and the
// CLI and end-to-end suites run again against it. Ends with one plain line, `N passed, N failed`, counting
// every test case of both runs plus the type check, the lint and the packaging as one case each.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const bin = (name) => join("node_modules", ".bin", name);
const extraArgs = process.argv.slice(2);
let passed = 0;
let failed = 0;
let total = 0;

function step(label, command, args, env = {}) {
  process.stdout.write(`\n== ${label}\n`);
  const { status } = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return status === 0;
}

function check(label, command, args) {
  if (step(label, command, args)) passed += 1;
  else failed += 1;
}

function vitest(label, args, env = {}) {
  const reportFile = join(".test-tmp", `vitest-${label.replace(/\W+/g, "-")}.json`);
  mkdirSync(".test-tmp", { recursive: true });
  rmSync(reportFile, { force: true });
  step(
    label,
    bin("vitest"),
    ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`, ...args],
    env,
  );
  try {
    const report = JSON.parse(readFileSync(reportFile, "utf8"));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    total += report.numTotalTests;
    // A file that failed to load has no test cases: count it as a failure rather than as nothing.
    failed += report.testResults.filter(
      (file) => file.status === "failed" && file.assertionResults.length === 0,
    ).length;
  } catch {
    console.log(`${label}: vitest wrote no report, counting it as failed`);
    failed += 1;
  }
}

check("type check (tsc)", bin("tsc"), ["-p", "tsconfig.json", "--noEmit"]);
check("lint (biome)", bin("biome"), ["check", "."]);
if (!step("build (esbuild)", process.execPath, ["scripts/build.mjs"])) {
  console.log(`\nthe build failed, so the suite cannot run\n${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}
vitest("tests (vitest)", extraArgs);

if (extraArgs.length === 0) {
  const binary = resolve("dist", `adreport-${process.platform}-${process.arch}`);
  if (step("single-file binary (npm run package)", process.execPath, ["scripts/package.mjs"])) {
    passed += 1;
    vitest("CLI and end-to-end tests against the binary", ["test/cli", "test/e2e"], { ADREPORT_TEST_BIN: binary });
  } else {
    failed += 1;
  }
}

if (total === 0) {
  console.log("no test ran: counting that as a failure");
  failed += 1;
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
