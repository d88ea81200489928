/** Helpers shared by the benchmarks: timing, medians and the figure lines they print. */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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

/** Wall milliseconds of a command that must exit with `status` (0, or 2 for a refusal of bad flags). */
export function timeCommand(command: string, args: readonly string[], status = 0): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: ["ignore", "ignore", "pipe"] });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== status)
    throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

export function figure(name: string, value: string, verdict?: boolean): void {
  const mark = verdict === undefined ? "" : verdict ? "  ok" : "  OVER TARGET";
  console.log(`  ${name.padEnd(58)} ${value}${mark}`);
}

export function ensureBuilt(): void {
  if (!existsSync(join(ROOT, "dist", "adreport.mjs"))) {
    const built = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], { stdio: "inherit" });
    if (built.status !== 0) throw new Error("build failed");
  }
}

/** Runs a command under GNU time: wall seconds and peak RSS in MB. */
export function measureCommand(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): { seconds: number; peakMb: number; stderr: string } {
  const result = spawnSync("/usr/bin/time", ["-f", "__time %e %M", command, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  const match = /__time ([\d.]+) (\d+)/.exec(result.stderr);
  if (result.status !== 0 || !match) throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr}`);
  return { seconds: Number(match[1]), peakMb: Number(match[2]) / 1024, stderr: result.stderr };
}

/** Peak resident memory so far of a running process, in MB (Linux). */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

export function cli(args: readonly string[], input?: string): string {
  const result = spawnSync(process.execPath, [BIN, ...args], { input, encoding: "utf8", maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`adreport ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

export async function timeAsync(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}
