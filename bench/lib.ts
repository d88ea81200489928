/** Helpers shared by the benchmarks: timing, medians and the figure lines they print. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(__dirname, "..");
export const BIN = join(ROOT, "bin", "adreport");

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function timeCommand(command: string, args: readonly string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: ["ignore", "ignore", "pipe"] });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

export function figure(name: string, value: string, verdict?: boolean): void {
  const mark = verdict === undefined ? "" : verdict ? "  ok" : "  OVER TARGET";
  console.log(`  ${name.padEnd(58)} ${value}${mark}`);
}

export function ensureBuilt(): void {
  if (!existsSync(join(ROOT, "dist", "adreport.cjs"))) {
    const built = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], { stdio: "inherit" });
    if (built.status !== 0) throw new Error("build failed");
  }
}
