/**
 * Where an export goes, as only a process shows it: the real CLI with its stdout opened on /dev/full or on
 * whatever /proc/self/fd/1 is, a named pipe whose reader leaves, Ctrl-C while a named pipe waits for a
 * reader, a read-only file system in a private mount namespace, and file names relative to the working
 * folder. The service runs in this test process. The other output cases run in this process too:
 * test/commands/report/output.test.ts.
 */

import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startDemoService } from "../helpers/demo-service";
import { makeFifo, ndjsonRows, pipeReader } from "../helpers/sinks";
import { cliCommand, runCli } from "../helpers/spawn-cli";

const { dir, env: ENV } = await startDemoService();
/** About 1,900 hourly rows (about 300 KB of NDJSON): more than a pipe holds, so a reader that leaves is seen. */
const HOURLY = ["--from", "2026-09-22", "--to", "2026-10-31", "--dims", "ad,date", "--granularity", "hour", "-q"];

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI with its stdout on a descriptor of ours (a device, a file), and optionally wrapped in a command. */
function runWithStdout(
  args: readonly string[],
  stdoutFd: number | "pipe",
  wrap: readonly string[] = [],
): Promise<Ended> {
  const [command, argv] = cliCommand(args);
  const [program, ...rest] = [...wrap, command, ...argv] as [string, ...string[]];
  return new Promise((resolve, reject) => {
    const child = spawn(program, rest, {
      env: { ...process.env, ...ENV },
      stdio: ["ignore", stdoutFd, "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function report(args: readonly string[], options: { cwd?: string } = {}) {
  return runCli(["report", ...args], { env: ENV, ...options });
}

function withDevFull<T>(work: (fd: number) => Promise<T>): Promise<T> {
  const fd = openSync("/dev/full", "w");
  return work(fd).finally(() => closeSync(fd));
}

const expectedRows = ndjsonRows((await report([...HOURLY, "-f", "ndjson"])).stdout);

// Each case is its own process writing to its own target: they run side by side.
describe.concurrent("a full disk on stdout", () => {
  it("report > /dev/full exits 1 and says standard output could not be written", { tags: ["binary"] }, async () => {
    for (const format of ["ndjson", "csv", "json", "table"]) {
      const result = await withDevFull((fd) => runWithStdout(["report", ...HOURLY, "-f", format], fd));
      expect(result.code, format).toBe(1);
      expect(result.stderr).toBe("adreport: could not write to standard output: no space left on device\n");
    }
  });

  it("other commands' output to /dev/full exits 1 too (help, serve demo --ndjson -)", async () => {
    for (const args of [
      ["--help"],
      ["serve", "demo", "--ndjson", "-", "--days", "1", "--advertisers", "1", "--campaigns", "1", "--ads", "1"],
    ]) {
      const result = await withDevFull((fd) => runWithStdout(args, fd));
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr).toBe("adreport: could not write to standard output: no space left on device\n");
    }
  });
});

describe.concurrent("-o to whatever stdout is", () => {
  it("-o /proc/self/fd/1 writes to whatever stdout is", async () => {
    const result = await report([...HOURLY, "-f", "ndjson", "-o", "/proc/self/fd/1"]);
    expect(result.code, result.stderr).toBe(0);
    expect(ndjsonRows(result.stdout)).toEqual(expectedRows);
  });
});

describe.concurrent("-o to a named pipe whose reader leaves", () => {
  it("a reader that goes away early is a failed export: exit 1, not a quiet 0", { tags: ["binary"] }, async () => {
    const fifo = makeFifo();
    const reader = pipeReader(fifo, ["head", "-c", "100"]);
    try {
      const result = await report([...HOURLY, "-f", "ndjson", "-o", fifo]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`adreport: cannot write ${fifo}: the reader went away (broken pipe)\n`);
      expect(statSync(fifo).isFIFO()).toBe(true);
    } finally {
      reader.child.kill();
    }
  });
});

/** True once a thread of `pid` waits in the kernel for the other end of a named pipe (Linux's wchan). */
function waitsForPipePartner(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some(
      (task) => readFileSync(`/proc/${pid}/task/${task}/wchan`, "utf8") === "wait_for_partner",
    );
  } catch {
    return false;
  }
}

describe.concurrent("-o to a named pipe nobody reads", () => {
  it("Ctrl-C while waiting for a reader ends with 130 and leaves the FIFO as it was", async ({ expect }) => {
    const fifo = makeFifo();
    const [command, argv] = cliCommand(["report", ...HOURLY, "-f", "ndjson", "-o", fifo]);
    const child = spawn(command, argv, { env: { ...process.env, ...ENV }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      // The observable event: the open of the FIFO blocks in the kernel.
      await expect.poll(() => waitsForPipePartner(child.pid as number), { timeout: 60_000 }).toBe(true);
      child.kill("SIGINT");
      expect(await exited, stderr).toBe(130);
      expect(stderr).toMatch(/^adreport: interrupted/);
      expect(statSync(fifo).isFIFO()).toBe(true);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
describe.concurrent("an output that cannot be written: exit 1 with the path and the system's reason", () => {
  it("a read-only file system says so (a read-only tmpfs in a private mount namespace)", async (context) => {
    const mountPoint = join(dir, "read-only");
    mkdirSync(mountPoint);
    const target = join(mountPoint, "out.csv");
    const wrap = ["unshare", "-m", "sh", "-c", 'mount -t tmpfs -o ro tmpfs "$0" && exec "$@"', mountPoint];
    if (spawnSync(wrap[0] as string, [...wrap.slice(1), "true"]).status !== 0) {
      context.skip("no mount namespaces here (an unprivileged container)");
    }
    const result = await runWithStdout(["report", ...HOURLY, "-o", target], "pipe", wrap);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`adreport: cannot write ${target}: read-only file system\n`);
  });
});

describe.concurrent("the format from the file's ending", () => {
  // Relative names resolve against the process's working folder: in this process they would not (yet)
  // resolve against ctx.cwd. The same case with absolute names: test/commands/report/output.test.ts.
  it("an ending the tool does not know, without --format, is exit 2 naming the known endings", async () => {
    const cwd = join(dir, "endings");
    mkdirSync(cwd);
    for (const name of ["out.xlsx", "out.avro", "out"]) {
      const result = await report([...HOURLY, "-o", name], { cwd });
      expect(result.code, name).toBe(2);
      expect(result.stderr).toContain(`adreport: cannot tell the format of ${name} from its ending`);
      expect(result.stderr).toMatch(/known endings: .*\.csv.*\.ndjson/);
      expect(result.stderr).toContain("hint: ");
    }
    expect(readdirSync(cwd)).toEqual([]);
    const chosen = await report([...HOURLY, "-o", "out.xlsx", "-f", "ndjson"], { cwd });
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(ndjsonRows(readFileSync(join(cwd, "out.xlsx"), "utf8"))).toEqual(expectedRows);
  });
});
