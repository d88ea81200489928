/**
 * Where an export goes, end to end: the real CLI process against a real `serve`, writing into stdout
 * opened on /dev/full, character devices, named pipes read by another process, folders, a read-only file
 * system, an immutable file, and file names whose ending says no known format. Written to pass as root
 * (CI runs as root, where permissions stop nothing): a refusal comes from the file system itself.
 */

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliCommand, runCli } from "../helpers/cli";
import { startTestService } from "../helpers/serve";
import { tempDir } from "../helpers/temp";

const service = await startTestService({ keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }] });
const dir = tempDir();
const ENV = {
  ADREPORT_CONFIG_DIR: join(dir, "config"),
  ADREPORT_API_KEY: service.keys[0] as string,
  ADREPORT_BASE_URL: service.url,
};
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

function ndjsonRows(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

function withDevFull<T>(work: (fd: number) => Promise<T>): Promise<T> {
  const fd = openSync("/dev/full", "w");
  return work(fd).finally(() => closeSync(fd));
}

/**
 * A character device node of our own that behaves as /dev/full (1,7) or /dev/null (1,3), where this
 * machine lets us make one (root): a sink that wrongly replaced its target never touches the system's.
 */
function ownDevice(name: "full" | "null"): string {
  const path = join(tempDir(), name);
  const made = spawnSync("mknod", [path, "c", "1", name === "full" ? "7" : "3"]).status === 0;
  return made ? path : `/dev/${name}`;
}

/** A reader of a named pipe, in its own process: `cat` for all of it, `head -c N` for a reader that leaves. */
function pipeReader(fifo: string, command: readonly string[]): { child: ChildProcess; output: Promise<string> } {
  const [program, ...args] = command as [string, ...string[]];
  const child = spawn(program, [...args, fifo], { stdio: ["ignore", "pipe", "inherit"] });
  const output = new Promise<string>((resolve) => {
    let text = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
    });
    child.on("close", () => resolve(text));
  });
  return { child, output };
}

function makeFifo(): string {
  const fifo = join(tempDir(), "loader.pipe");
  const made = spawnSync("mkfifo", [fifo]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  return fifo;
}

const expectedRows = ndjsonRows((await report([...HOURLY, "-f", "ndjson"])).stdout);

describe("a full disk on stdout", () => {
  it("report > /dev/full exits 1 and says standard output could not be written", async () => {
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

describe("-o to a character device", () => {
  it("writes into the device: exit 1 for a full one, and the device is still a device", async () => {
    const device = ownDevice("full");
    const result = await report([...HOURLY, "-f", "csv", "-o", device]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`adreport: cannot write ${device}: no space left on device\n`);
    expect(statSync(device).isCharacterDevice()).toBe(true);
    expect(statSync("/dev/full").isCharacterDevice()).toBe(true);
  });

  it("writes into a null device directly (no temporary file beside it), exit 0", async () => {
    const device = ownDevice("null");
    const result = await report([...HOURLY, "-f", "csv", "-o", device]);
    expect(result.code, result.stderr).toBe(0);
    expect(statSync(device).isCharacterDevice()).toBe(true);
    expect(readdirSync(dirname(device)).filter((name) => name.startsWith(".null."))).toEqual([]);
  });

  it("-o /proc/self/fd/1 writes to whatever stdout is", async () => {
    const result = await report([...HOURLY, "-f", "ndjson", "-o", "/proc/self/fd/1"]);
    expect(result.code, result.stderr).toBe(0);
    expect(ndjsonRows(result.stdout)).toEqual(expectedRows);
  });
});

describe("-o to a named pipe", () => {
  it("a reader of the FIFO gets every row, and the FIFO stays a FIFO", async () => {
    const fifo = makeFifo();
    const reader = pipeReader(fifo, ["cat"]);
    try {
      const result = await report([...HOURLY, "-f", "ndjson", "-o", fifo]);
      expect(result.code, result.stderr).toBe(0);
      expect(ndjsonRows(await reader.output)).toEqual(expectedRows);
      expect(statSync(fifo).isFIFO()).toBe(true);
      expect(readdirSync(join(fifo, ".."))).toEqual(["loader.pipe"]);
    } finally {
      reader.child.kill();
    }
  });

  it("a reader that goes away early is a failed export: exit 1, not a quiet 0", async () => {
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

describe("-o to a named pipe nobody reads", () => {
  it("Ctrl-C while waiting for a reader ends with 130 and leaves the FIFO as it was", async () => {
    const fifo = makeFifo();
    const [command, argv] = cliCommand(["report", ...HOURLY, "-f", "ndjson", "-o", fifo]);
    const child = spawn(command, argv, { env: { ...process.env, ...ENV }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      // The observable event: the open of the FIFO blocks in the kernel (bounded: 60 s of 20 ms polls).
      for (let i = 0; i < 3000 && !waitsForPipePartner(child.pid as number); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(waitsForPipePartner(child.pid as number)).toBe(true);
      child.kill("SIGINT");
      expect(await exited, stderr).toBe(130);
      expect(stderr).toMatch(/^adreport: interrupted/);
      expect(statSync(fifo).isFIFO()).toBe(true);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("an output that cannot be written: exit 1 with the path and the system's reason", () => {
  it("a folder, with or without --format, before any request", async () => {
    const folder = join(dir, "a-folder");
    mkdirSync(folder);
    for (const args of [
      ["-o", folder],
      ["-o", `${folder}/`, "-f", "csv"],
    ]) {
      const result = await report([...HOURLY, ...args]);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr).toBe(`adreport: cannot write ${args[1]}: is a folder\n`);
    }
    expect(readdirSync(folder)).toEqual([]);
  });

  it("a missing folder, and a folder that takes no new files (/proc)", async () => {
    const missing = join(dir, "no-such-folder", "out.csv");
    const result = await report([...HOURLY, "-o", missing]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`adreport: cannot write ${missing}: no such folder\n`);
    const proc = await report([...HOURLY, "-o", "/proc/adreport-out.csv"]);
    expect(proc.code).toBe(1);
    expect(proc.stderr).toBe("adreport: cannot write /proc/adreport-out.csv: the folder does not accept new files\n");
  });

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

  it("an immutable file: exit 1, the old file kept, no temporary file left", async (context) => {
    const folder = join(dir, "immutable");
    mkdirSync(folder);
    const target = join(folder, "report.csv");
    writeFileSync(target, "old content\n");
    if (spawnSync("chattr", ["+i", target]).status !== 0) {
      context.skip("a file system without the immutable attribute (tmpfs), or no chattr");
    }
    try {
      const result = await report([...HOURLY, "-o", target]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(`^adreport: cannot write ${target}: operation not permitted .*; the old file was left as it was\n$`),
      );
      expect(readFileSync(target, "utf8")).toBe("old content\n");
      expect(readdirSync(folder)).toEqual(["report.csv"]);
    } finally {
      spawnSync("chattr", ["-i", target]);
    }
  });

  it("serve demo --ndjson: the same error, exit 1", async () => {
    const small = ["--days", "1", "--advertisers", "1", "--campaigns", "1", "--ads", "1"];
    const missing = join(dir, "no-such-folder", "demo.ndjson");
    for (const [target, reason] of [
      [missing, "no such folder"],
      [ownDevice("full"), "no space left on device"],
      [dir, "is a folder"],
    ] as const) {
      const result = await runCli(["serve", "demo", "--ndjson", target, ...small]);
      expect(result.code, target).toBe(1);
      expect(result.stderr).toBe(`adreport: cannot write ${target}: ${reason}\n`);
    }
  });
});

describe("the format from the file's ending", () => {
  it("an ending the tool does not know, without --format, is exit 2 naming the known endings", async () => {
    const cwd = join(dir, "endings");
    mkdirSync(cwd);
    for (const name of ["out.xlsx", "out.parquet", "out"]) {
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

  it("-o - is stdout, not a file named -", async () => {
    const cwd = join(dir, "dash");
    mkdirSync(cwd);
    const result = await report([...HOURLY, "-f", "ndjson", "-o", "-"], { cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(ndjsonRows(result.stdout)).toEqual(expectedRows);
    expect(existsSync(join(cwd, "-"))).toBe(false);
  });
});
