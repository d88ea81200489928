/**
 * Cold start (foundation issue): `adreport --version` and `--help` against `node -e 0`, runs interleaved
 * so machine noise hits all three alike. Target: each at most 1.6x, median of the runs.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { BIN, ensureBuilt, figure, median, ROOT, timeCommand } from "./lib";

/** A command to time: the program, its arguments and the exit status it must end with. */
export type StartupCase = readonly [string, readonly string[], number?];

/** The paths that must start fast (issue 23): each against `node -e 0`. */
export const STARTUP_PATHS: Record<string, StartupCase> = {
  "--version": [process.execPath, [BIN, "--version"]],
  "--help": [process.execPath, [BIN, "--help"]],
  "report --help": [process.execPath, [BIN, "report", "--help"]],
  "report --bogus (refused, exit 2)": [process.execPath, [BIN, "report", "--bogus"], 2],
};

/** Median wall ms of each case and of `node -e 0`, `runs` interleaved runs after one warm-up of each. */
export function measureStartup(cases: Record<string, StartupCase>, runs: number): Record<string, number> {
  const all: Record<string, StartupCase> = { "node -e 0": [process.execPath, ["-e", "0"]], ...cases };
  const samples: Record<string, number[]> = {};
  for (const name of Object.keys(all)) samples[name] = [];
  for (const [command, args, status] of Object.values(all)) timeCommand(command, args, status); // warm the file cache
  for (let i = 0; i < runs; i += 1) {
    for (const [name, [command, args, status]] of Object.entries(all)) {
      samples[name]?.push(timeCommand(command, args, status));
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

export function benchStartup(runs = 10): void {
  ensureBuilt();
  const binary = join(ROOT, "dist", `adreport-${process.platform}-${process.arch}`);
  const cases: Record<string, StartupCase> = {
    "adreport --version": [process.execPath, [BIN, "--version"]],
    "adreport --help": [process.execPath, [BIN, "--help"]],
  };
  if (existsSync(binary)) {
    cases[`single binary --version (${(statSync(binary).size / 1e6).toFixed(0)} MB)`] = [binary, ["--version"]];
  }
  const medians = measureStartup(cases, runs);
  const base = medians["node -e 0"] as number;
  console.log(`start-up, median of ${runs} interleaved runs`);
  for (const [name, m] of Object.entries(medians)) {
    const ratio = m / base;
    figure(name, `${m.toFixed(1)} ms  ${ratio.toFixed(2)}x`, name.startsWith("node") ? undefined : ratio <= 1.6);
  }
}
