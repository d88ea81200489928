/**
 * The exit codes of docs/service.md §9 where they part from "failed" (1): a bug is 70 with a request to
 * report it, a job whose lock another run holds is 75 (cron wrappers retry it), a system error is 1.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExitCode } from "../../src/core/exit-codes";
import { runInProcess } from "../helpers/run-cli-in-process";
import { tempDir } from "../helpers/temp";

const KEY = { ADREPORT_API_KEY: "adr_test_key_for_exit_codes" };

describe("exit codes", () => {
  it("a bug is 70, `internal error`, with a hint to report it", async () => {
    const result = await runInProcess(["report", "--dims", "campaign"], {
      env: KEY,
      now: () => {
        throw new TypeError("clock broke");
      },
    });
    expect(result.code).toBe(70);
    expect(result.stderr).toBe(
      "adreport: internal error: clock broke\nhint: this is a bug; please report it with the command you ran (ADREPORT_DEBUG=1 shows where it happened)\n",
    );
  });

  it("a system error nothing expected is 1 with the system's reason, not a bug report", async () => {
    const result = await runInProcess(["report", "--dims", "campaign"], {
      env: KEY,
      now: () => {
        throw Object.assign(new Error("EIO: i/o error, read"), { code: "EIO", path: "/dev/sdz" });
      },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("adreport: input/output error: /dev/sdz (EIO)\n");
  });

  it("state reset of a job whose lock a live run holds is 75, the state left as it was", async () => {
    const dir = tempDir("adreport-exit-");
    writeFileSync(join(dir, "job.json"), "{not json");
    writeFileSync(join(dir, "job.lock"), `${process.pid}\n`);
    const result = await runInProcess(["state", "reset", "--state-file", "job.json"], { cwd: dir });
    expect(result.code, result.stderr).toBe(75);
    expect(result.stderr).toMatch(/is under way \(pid \d+\); its state was left as it was/);
  });

  it("--help names every code", async () => {
    const help = (await runInProcess(["--help"])).stdout.replace(/\s+/g, " ");
    expect(help).toContain("1 failed (an output that could not be written)");
    expect(help).toContain("70 a bug in adreport (please report it)");
    expect(help).toContain("75 busy (another run of the job holds its lock: retry later)");
    expect(help).not.toContain("unexpected");
  });

  // One list (src/core/exit-codes.ts): the help, the README, the topic and service.md name every code in it.
  it.each(Object.entries(ExitCode))(
    "exit %s (%s) is in --help, the README, `help exit-codes` and docs/service.md",
    async (_, code) => {
      const help = (await runInProcess(["--help"])).stdout.replace(/\s+/g, " ");
      expect(help).toMatch(new RegExp(`Exit codes:.*[ ,]${code} [a-z]`));
      const root = join(import.meta.dirname, "..", "..");
      for (const file of ["README.md", join("docs", "topics", "exit-codes.md"), join("docs", "service.md")]) {
        expect(readFileSync(join(root, file), "utf8"), file).toMatch(new RegExp(`^ *\\| ${code} +\\| \\S`, "m"));
      }
    },
  );
});
