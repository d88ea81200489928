/**
 * `-o duckdb:PATH` on a file system that refuses the write: full (a small tmpfs) or read-only, each in a
 * private mount namespace around a real CLI process. One line naming the table and the system's reason,
 * never DuckDB's own text (`Failed to commit: Could not write file ...`).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";
import { cliCommand } from "../../helpers/spawn-cli";

const RANGE = ["report", "--dims", "ad,date", "--granularity", "hour", "--from", "2026-09-22", "--to", "2026-10-31"];

/** The CLI inside `unshare -m`, a tmpfs mounted at `mountPoint` with `options` first. */
function runOnTmpfs(
  args: readonly string[],
  mountPoint: string,
  options: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const [command, argv] = cliCommand(args);
  const wrap = ["-m", "sh", "-c", `mount -t tmpfs -o ${options} tmpfs "$0" && exec "$@"`, mountPoint];
  return new Promise((resolve, reject) => {
    const child = spawn("unshare", [...wrap, command, ...argv], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("duckdb: a file system that refuses the write", () => {
  it("full, or read-only: exit 1, one line with the system's reason and a hint, no DuckDB text", async (context) => {
    const { dir, env } = await startDemoService();
    const mountPoint = join(dir, "small");
    mkdirSync(mountPoint);
    if (spawnSync("unshare", ["-m", "sh", "-c", 'mount -t tmpfs tmpfs "$0"', mountPoint]).status !== 0) {
      context.skip("no mount namespaces here (an unprivileged container)");
    }
    const path = join(mountPoint, "ads.duckdb");
    // 16 KB hold the new file's header (12 KB), not the .wal of the run's rows.
    const full = await runOnTmpfs([...RANGE, "-o", `duckdb:${path}`], mountPoint, "size=16k", env);
    expect(full.code, full.stderr).toBe(1);
    expect(full.stderr).toMatch(
      new RegExp(
        `^adreport: cannot write the table adreport_ad_date in ${path}: no space left on device; the table was left as it was\nhint: `,
      ),
    );
    expect(full.stderr.split("\n").length).toBeLessThanOrEqual(3);
    expect(full.stderr).not.toMatch(/Error:|Failed to|Could not|duckdb\.org/);

    const readOnly = await runOnTmpfs([...RANGE, "-o", `duckdb:${path}`], mountPoint, "ro", env);
    expect(readOnly.code, readOnly.stderr).toBe(1);
    expect(readOnly.stderr).toMatch(/: read-only file system\nhint: /);
    expect(readOnly.stderr).not.toMatch(/Error:|Failed to|Could not|duckdb\.org/);
  });

  it("sqlite: on the same full disk, exit 1 with SQLite's reason (it had rolled back itself: the ROLLBACK after was an internal error, exit 70)", async (context) => {
    const { dir, env } = await startDemoService();
    const mountPoint = join(dir, "small");
    mkdirSync(mountPoint);
    if (spawnSync("unshare", ["-m", "sh", "-c", 'mount -t tmpfs tmpfs "$0"', mountPoint]).status !== 0) {
      context.skip("no mount namespaces here (an unprivileged container)");
    }
    const path = join(mountPoint, "ads.db");
    const full = await runOnTmpfs([...RANGE, "-o", `sqlite:${path}`], mountPoint, "size=64k", env);
    expect(full.code, full.stderr).toBe(1);
    expect(full.stderr).toBe(`adreport: cannot write the table adreport_ad_date in ${path}: database or disk is full
`);
  });
});
