/**
 * `{date}` files next to what other programs and killed runs left: a named pipe or a device where a day's
 * file goes is refused before any request (it was replaced by a regular file, its reader getting nothing);
 * the staged files of a run killed with SIGKILL are removed by the next run of the same target, and those of
 * a run still alive are not.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { at, newService } from "../../helpers/incremental";

const DAYS = ["report", "--dims", "campaign,date", "--from", "2026-10-30", "--to", "2026-11-01", "-v"];
const DEAD_PID = 999_999_999; // above any pid_max: no such process

describe("{date} files where a named pipe or a device is", () => {
  it("refuses a named pipe, exit 1 naming the file, before any request; the pipe stays a pipe", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    execFileSync("mkfifo", [join(dir, "out", "2026-10-31.csv")]);
    const result = await run([...DAYS, "-o", "out/{date}.csv"], at("2026-11-02"));
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(
      /^adreport: cannot write out\/2026-10-31\.csv: it is a named pipe \(FIFO\), not a file a \{date\} export can replace/m,
    );
    expect(result.stderr).not.toMatch(/GET /);
    expect(statSync(join(dir, "out", "2026-10-31.csv")).isFIFO()).toBe(true);
    expect(readdirSync(join(dir, "out"))).toEqual(["2026-10-31.csv"]);
  });

  it("refuses a character device (a link to /dev/null), also with --incremental", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    symlinkSync("/dev/null", join(dir, "out", "2026-10-31.csv"));
    const result = await run(
      ["report", "--dims", "campaign,date", "-o", "out/{date}.csv", "--incremental", "--start", "2026-10-25", "-v"],
      at("2026-11-02"),
    );
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/cannot write out\/2026-10-31\.csv: it is a character device/);
    expect(result.stderr).not.toMatch(/GET /);
  });
});

describe("staged files left by a run killed with SIGKILL", () => {
  it("are removed by the next run of the same target; a live run's and other names' are kept", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const dead = [`.2026-10-30.csv.${DEAD_PID}.0badf00d.tmp`, `.2026-09-01.csv.${DEAD_PID}.deadbeef.tmp`];
    const kept = [
      `.2026-10-31.csv.${process.pid}.cafebabe.tmp`, // a run still going
      `.notes.txt.${DEAD_PID}.deadbeef.tmp`, // another program's file
    ];
    for (const name of [...dead, ...kept]) writeFileSync(join(dir, "out", name), "partial");
    const result = await run([...DAYS, "-o", "out/{date}.csv"], at("2026-11-02"));
    expect(result.code, result.stderr).toBe(0);
    const left = readdirSync(join(dir, "out")).filter((n) => n.startsWith("."));
    expect(left.sort()).toEqual([...kept].sort());
  });

  it("a run killed with SIGKILL mid-way: its staged files are gone after the next run", async () => {
    const { dir, start, run, reopen } = await newService();
    mkdirSync(join(dir, "out"));
    await reopen("delay:100ms");
    // The in-process run stands for the killed one: its files are renamed to carry a pid that no longer runs.
    const running = start([...DAYS, "-o", "out/{date}.csv", "--page-size", "1"], at("2026-11-02"));
    await running.waitFor("stderr", /GET .*page=2/);
    const staged = readdirSync(join(dir, "out")).filter((n) => n.endsWith(".tmp"));
    expect(staged.length).toBeGreaterThan(0);
    for (const name of staged) {
      const copy = name.replace(`.${process.pid}.`, `.${DEAD_PID}.`);
      execFileSync("cp", [join(dir, "out", name), join(dir, "out", copy)]);
    }
    running.signal("SIGTERM");
    expect((await running.result).code).toBe(130);
    expect(readdirSync(join(dir, "out")).filter((n) => n.endsWith(".tmp")).length).toBe(staged.length);
    await reopen();
    const next = await run([...DAYS, "-o", "out/{date}.csv"], at("2026-11-02"));
    expect(next.code, next.stderr).toBe(0);
    expect(readdirSync(join(dir, "out")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    expect(existsSync(join(dir, "out", "2026-10-31.csv"))).toBe(true);
  });
});
