/**
 * `adreport verify` and the ledger at their edges (found by attacking them), in process against the demo
 * service (SMALL_DEMO: data to 2026-10-31) with a fixed clock: a week job's service totals over whole weeks
 * whatever --to says, --from after --to refused, a foreign adreport_loads refused before any request.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";

const now = new Date("2026-11-01T06:00:00Z");

async function jobOf(demo: Awaited<ReturnType<typeof startDemoService>>, needle: string): Promise<string> {
  const list = await demo.run(["state", "list"], now);
  const line = list.stdout.split("\n").find((l) => l.includes(needle));
  return line?.split("\t")[0] ?? "";
}

describe("verify and the ledger at their edges", () => {
  it("a week job checked --against-service with --to in mid-week names no difference", async () => {
    const demo = await startDemoService();
    mkdirSync(join(demo.dir, "weeks"));
    const args = ["report", "--incremental", "--start", "2026-09-28", "--granularity", "week"];
    const run = await demo.run([...args, "--dims", "campaign,date", "-q", "-o", "weeks/{date}.csv"], now);
    expect(run.code, run.stderr).toBe(0);
    const job = await jobOf(demo, "weeks/");
    const whole = await demo.run(["verify", job, "--against-service"], now);
    expect(whole.code, whole.stdout + whole.stderr).toBe(0);
    // The bucket of Monday 2026-10-05 holds its whole week; --to 2026-10-06 must not compare two days of it.
    const part = await demo.run(
      ["verify", job, "--against-service", "--from", "2026-10-05", "--to", "2026-10-06"],
      now,
    );
    expect(part.stdout).toBe("");
    expect(part.code, part.stderr).toBe(0);
  }, 60_000);

  it("verify --from after --to is bad usage (2), not '0 days checked, every one matches'", async () => {
    const demo = await startDemoService();
    mkdirSync(join(demo.dir, "days"));
    const args = ["report", "--incremental", "--start", "2026-10-01", "--dims", "campaign,date", "-q"];
    expect((await demo.run([...args, "-o", "days/{date}.csv"], now)).code).toBe(0);
    const job = await jobOf(demo, "days/");
    const result = await demo.run(["verify", job, "--from", "2026-10-20", "--to", "2026-10-10"], now);
    expect(result.code, result.stderr).toBe(2);
  }, 60_000);

  it("a database holding a foreign adreport_loads is refused before any request (exit 2)", async () => {
    const demo = await startDemoService();
    const path = join(demo.dir, "out.db");
    const db = new Database(path);
    db.exec("CREATE TABLE adreport_loads (x INTEGER)");
    db.close();
    const result = await demo.run(
      [
        "report",
        "--incremental",
        "--start",
        "2026-10-01",
        "--dims",
        "campaign,date",
        "-q",
        "-o",
        `sqlite:${path}`,
        "--summary",
        "json",
      ],
      now,
    );
    expect(result.stderr).toContain('"requests":0');
    expect(result.code, result.stderr).toBe(2);
  }, 60_000);
});
