/**
 * Where an export goes (the CLI in this process, a real server on 127.0.0.1): character devices, a named
 * pipe read by another process, folders, /proc, an immutable file, file names whose ending says no known
 * format. Written to pass as root (CI runs as root, where permissions stop nothing): a refusal comes from the
 * file system itself. What only a process shows (its stdout on /dev/full, a FIFO reader leaving, Ctrl-C, a
 * mount namespace, relative paths): test/e2e/output.test.ts.
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { makeFifo, ndjsonRows, ownDevice, pipeReader } from "../../helpers/sinks";

const { dir, env: ENV } = await startDemoService();
/** About 1,900 hourly rows (about 300 KB of NDJSON): more than a pipe holds. */
const HOURLY = ["--from", "2026-09-22", "--to", "2026-10-31", "--dims", "ad,date", "--granularity", "hour", "-q"];

function report(args: readonly string[], options: { cwd?: string } = {}) {
  return runInProcess(["report", ...args], { env: ENV, ...options });
}

const expectedRows = ndjsonRows((await report([...HOURLY, "-f", "ndjson"])).stdout);

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

  it("a missing folder is input to fix (exit 2, how to make it); a folder that takes no new files (/proc)", async () => {
    const missing = join(dir, "no such folder", "out.csv");
    const result = await report([...HOURLY, "-o", missing]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `adreport: cannot write ${missing}: no such folder\nhint: create it first: mkdir -p '${join(dir, "no such folder")}'\n`,
    );
    const proc = await report([...HOURLY, "-o", "/proc/adreport-out.csv"]);
    expect(proc.code).toBe(1);
    expect(proc.stderr).toBe("adreport: cannot write /proc/adreport-out.csv: the folder does not accept new files\n");
  });

  it("a file where a folder of the path should be is input to fix too (exit 2), naming that file", async () => {
    const file = join(dir, "a-file.csv");
    writeFileSync(file, "");
    for (const target of [join(file, "out.csv"), join(file, "deeper", "out.csv"), join(file, "{date}", "out.csv")]) {
      const result = await report([...HOURLY, "-o", target]);
      expect(result.code, target).toBe(2);
      expect(result.stderr).toBe(
        `adreport: cannot write ${target}: ${file} is not a folder\nhint: remove or rename what is there, or change -o\n`,
      );
    }
    expect(readFileSync(file, "utf8")).toBe("");
  });

  it("the hint for a missing folder runs as printed in bash, whatever the folder's name", async () => {
    const cwd = join(dir, "hostile-folders");
    mkdirSync(cwd);
    for (const name of ["-lead", 'a b/it\'s "q"', "new\nline", "back\\slash\ttab"]) {
      const target = `${name}/x.csv`;
      const refused = await report([...HOURLY, "-o", target], { cwd });
      expect(refused.code, name).toBe(2);
      const hint = /^hint: create it first: (.*)$/m.exec(refused.stderr)?.[1] ?? "";
      const made = spawnSync("bash", ["-c", hint], { cwd, encoding: "utf8" });
      expect(made.status, `${hint}: ${made.stderr}`).toBe(0);
      const ran = await report([...HOURLY, "-o", target], { cwd });
      expect(ran.code, `${name}: ${ran.stderr}`).toBe(0);
      expect(existsSync(join(cwd, target)), hint).toBe(true);
    }
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
      const result = await runInProcess(["serve", "demo", "--ndjson", target, ...small]);
      expect(result.code, target).toBe(1);
      expect(result.stderr).toBe(`adreport: cannot write ${target}: ${reason}\n`);
    }
  });
});

describe("the format from the file's ending", () => {
  it("an ending the tool does not know, without --format, is exit 2 naming the known endings", async () => {
    const folder = join(dir, "endings");
    mkdirSync(folder);
    for (const name of ["out.xlsx", "out.avro", "out"]) {
      const target = join(folder, name);
      const result = await report([...HOURLY, "-o", target]);
      expect(result.code, name).toBe(2);
      expect(result.stderr).toContain(`adreport: cannot tell the format of ${target} from its ending`);
      expect(result.stderr).toMatch(/known endings: .*\.csv.*\.ndjson/);
      expect(result.stderr).toContain("hint: ");
    }
    expect(readdirSync(folder)).toEqual([]);
    const chosen = await report([...HOURLY, "-o", join(folder, "out.xlsx"), "-f", "ndjson"]);
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(ndjsonRows(readFileSync(join(folder, "out.xlsx"), "utf8"))).toEqual(expectedRows);
  });

  it("-o - is stdout, not a file named -", async () => {
    const cwd = join(dir, "dash");
    mkdirSync(cwd);
    const result = await report([...HOURLY, "-f", "ndjson", "-o", "-"], { cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(ndjsonRows(result.stdout)).toEqual(expectedRows);
    // Neither where the command was told it runs, nor where this test process runs.
    expect(existsSync(join(cwd, "-"))).toBe(false);
    expect(existsSync(join(process.cwd(), "-"))).toBe(false);
  });
});
