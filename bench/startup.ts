/**
 * Cold start (foundation issue): `adreport --version` and `--help` against `node -e 0`, runs interleaved
 * so machine noise hits all three alike. Target: each at most 1.6x, median of the runs.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { BIN, ensureBuilt, figure, median, ROOT, timeCommand } from "./lib";

export function benchStartup(runs = 10): void {
  ensureBuilt();
  const node = process.execPath;
  const binary = join(ROOT, "dist", `adreport-${process.platform}-${process.arch}`);
  const cases: Record<string, readonly [string, readonly string[]]> = {
    "node -e 0": [node, ["-e", "0"]],
    "adreport --version": [node, [BIN, "--version"]],
    "adreport --help": [node, [BIN, "--help"]],
  };
  if (existsSync(binary)) {
    cases[`single binary --version (${(statSync(binary).size / 1e6).toFixed(0)} MB)`] = [binary, ["--version"]];
  }
  const samples: Record<string, number[]> = {};
  for (const name of Object.keys(cases)) samples[name] = [];
  for (const [command, args] of Object.values(cases)) timeCommand(command, args); // warm the file cache
  for (let i = 0; i < runs; i += 1) {
    for (const [name, [command, args]] of Object.entries(cases)) samples[name]?.push(timeCommand(command, args));
  }
  const base = median(samples["node -e 0"] ?? []);
  console.log(`start-up, median of ${runs} interleaved runs`);
  for (const [name, values] of Object.entries(samples)) {
    const m = median(values);
    const ratio = m / base;
    figure(name, `${m.toFixed(1)} ms  ${ratio.toFixed(2)}x`, name.startsWith("node") ? undefined : ratio <= 1.6);
  }
}
