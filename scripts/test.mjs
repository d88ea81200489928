// `npm test`: type check, lint, build, then the whole vitest suite. Ends with one plain line,
// `N passed, N failed`, counting every test case plus the type check and the lint as one case each.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const bin = (name) => join("node_modules", ".bin", name);
const extraArgs = process.argv.slice(2);
let passed = 0;
let failed = 0;

function step(label, command, args) {
  process.stdout.write(`\n== ${label}\n`);
  const { status } = spawnSync(command, args, { stdio: "inherit" });
  return status === 0;
}

for (const [label, command, args] of [
  ["type check (tsc)", bin("tsc"), ["-p", "tsconfig.json", "--noEmit"]],
  ["lint (biome)", bin("biome"), ["check", "."]],
]) {
  if (step(label, command, args)) passed += 1;
  else failed += 1;
}

if (!step("build (esbuild)", process.execPath, ["scripts/build.mjs"])) {
  console.log("\nthe build failed, so the suite cannot run");
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}

const reportDir = ".test-tmp";
const reportFile = join(reportDir, "vitest-report.json");
mkdirSync(reportDir, { recursive: true });
rmSync(reportFile, { force: true });
step("tests (vitest)", bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${reportFile}`,
  ...extraArgs,
]);

let total = 0;
try {
  const report = JSON.parse(readFileSync(reportFile, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  total = report.numTotalTests;
  // A file that failed to load has no test cases: count it as a failure rather than as nothing.
  failed += report.testResults.filter((file) => file.status === "failed" && file.assertionResults.length === 0).length;
} catch {
  console.log("vitest wrote no report: counting the suite as failed");
  failed += 1;
}
if (total === 0 && extraArgs.length === 0) {
  console.log("no test ran: counting that as a failure");
  failed += 1;
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
