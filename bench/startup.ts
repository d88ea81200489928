/**
 * Cold start (issue 23): `adreport --version`, `--help`, `report --help` and refusals of bad flags against
 * `node -e 0`, runs interleaved so machine noise hits all of them alike. Target: each at most 1.3x, median
 * of the runs.
 */
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { BIN, ensureBuilt, figure, median, ROOT } from "./lib";

export const STARTUP_TARGET = 1.3;

/** The commands timed: arguments of bin/adreport and the exit code each must end with. */
export const STARTUP_COMMANDS: readonly (readonly [args: readonly string[], exitCode: number])[] = [
  [["--version"], 0],
  [["--help"], 0],
  [["report", "--help"], 0],
  [["report", "--format", "nope"], 2],
  [["--no-such-flag"], 2],
  [["report", "--no-such-flag"], 2],
  [["report", "--from", "garbage"], 2],
  [["report", "--dims", "campaign,nope"], 2],
  [["report", "--granularity", "fortnight"], 2],
];

export interface StartupFigure {
  name: string;
  medianMs: number;
  /** The median against `node -e 0`'s. */
  ratio: number;
}

// No config file or key of the machine's user: a refusal must not depend on them.
const ENV = { ...process.env, ADREPORT_CONFIG_DIR: "/nonexistent-adreport-bench", ADREPORT_API_KEY: "" };

function timeRun(command: string, args: readonly string[], exitCode: number): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: ["ignore", "ignore", "pipe"], env: ENV });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== exitCode) {
    throw new Error(`${command} ${args.join(" ")} exited ${result.status}, not ${exitCode}: ${result.stderr}`);
  }
  return elapsed;
}

/** Medians of `runs` interleaved runs of each command, and their ratios against `node -e 0`. */
export function measureStartup(runs = 10): StartupFigure[] {
  ensureBuilt();
  const node = process.execPath;
  const binary = join(ROOT, "dist", `adreport-${process.platform}-${process.arch}`);
  const cases: [string, string, readonly string[], number][] = [["node -e 0", node, ["-e", "0"], 0]];
  for (const [args, exitCode] of STARTUP_COMMANDS)
    cases.push([`adreport ${args.join(" ")}`, node, [BIN, ...args], exitCode]);
  if (existsSync(binary)) {
    cases.push([`single binary --version (${(statSync(binary).size / 1e6).toFixed(0)} MB)`, binary, ["--version"], 0]);
  }
  for (const [, command, args, exitCode] of cases) timeRun(command, args, exitCode); // warm the file cache
  const samples = cases.map(() => [] as number[]);
  for (let i = 0; i < runs; i += 1) {
    for (const [n, [, command, args, exitCode]] of cases.entries()) samples[n]?.push(timeRun(command, args, exitCode));
  }
  const base = median(samples[0] ?? []);
  return cases.map(([name], n) => {
    const m = median(samples[n] ?? []);
    return { name, medianMs: m, ratio: m / base };
  });
}

export function benchStartup(runs = 10): void {
  const figures = measureStartup(runs);
  console.log(`start-up, median of ${runs} interleaved runs, target at most ${STARTUP_TARGET}x node -e 0`);
  for (const { name, medianMs, ratio } of figures) {
    const judged = name.startsWith("node") || name.startsWith("single") ? undefined : ratio <= STARTUP_TARGET;
    figure(name, `${medianMs.toFixed(1)} ms  ${ratio.toFixed(2)}x`, judged);
  }
}
