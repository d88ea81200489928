/**
 * A database job's id leaves out its metrics now (they may grow). A state kept by an earlier build under
 * the id with the metrics in is the same job's: `--dry-run` finds it, and the next run takes it over (the
 * file renamed, a note said) and continues from its last day instead of asking for --start again.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { earlierJobId } from "../../../src/engine/days/job-id";
import { startForwarder } from "../../helpers/forwarder";
import { at, newService } from "../../helpers/incremental";

const NOW = at("2026-11-02");
const JOB = ["report", "--dims", "campaign,date", "-o", "sqlite:ads.db", "--incremental", "-q"];

describe("a database job's state under its earlier id", () => {
  it("is found by --dry-run and taken over by the next run", async () => {
    const { dir, run } = await newService();
    expect((await run([...JOB, "--start", "2026-10-20"], NOW)).code).toBe(0);
    const folder = join(dir, "config", "state");
    const list = await run(["state", "list", "--format", "json"], NOW);
    const id = (JSON.parse(list.stdout) as Array<{ job: string }>)[0]?.job as string;
    const state = JSON.parse(readFileSync(join(folder, `${id}.json`), "utf8"));
    const earlier = earlierJobId(state.job) as string;
    expect(earlier).toMatch(/^[0-9a-f]{8}$/);
    expect(earlier).not.toBe(id);
    // As an earlier build left it: its file and its id under the old id.
    writeFileSync(join(folder, `${earlier}.json`), JSON.stringify({ ...state, id: earlier }), { mode: 0o600 });
    renameSync(join(folder, `${id}.run.json`), join(folder, `${earlier}.run.json`));
    rmSync(join(folder, `${id}.json`));
    // An earlier build kept no state in the database.
    new Database(join(dir, "ads.db")).exec("DROP TABLE adreport_jobs").close();

    const dry = await run([...JOB, "--dry-run", "--summary", "json"], NOW);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/2026-11-01/);
    expect(dry.stdout).not.toMatch(/--start/);

    const next = await run([...JOB, "--summary", "json"], NOW);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain(`adreport: job ${earlier} is now job ${id}`);
    expect(existsSync(join(folder, `${earlier}.json`))).toBe(false);
    const taken = JSON.parse(readFileSync(join(folder, `${id}.json`), "utf8"));
    expect(taken).toMatchObject({ id, lastDay: "2026-11-01" });
    expect(Object.keys(taken.days)).toHaveLength(13);
  });
});

describe("a job whose base URL changed", () => {
  it("is another job: its first run onto the first job's files is refused (exit 2), by --dry-run too", async () => {
    const { dir, run, service } = await newService();
    mkdirSync(join(dir, "out"));
    const files = ["report", "--dims", "campaign,date", "-o", "out/{date}.csv", "--incremental", "-q"];
    expect((await run([...files, "--start", "2026-10-28"], NOW)).code).toBe(0);
    const folder = join(dir, "config", "state");
    const [old] = readdirSync(folder).filter((name) => /^[0-9a-f]{8}\.json$/.test(name));
    const oldId = (old as string).slice(0, 8);
    const written = readdirSync(join(dir, "out")).map((name) => [name, statSync(join(dir, "out", name)).mtimeMs]);

    // The same service under another address (as after a profile's base-url was edited).
    const forwarder = await startForwarder(service.url);
    const moved = { ADREPORT_BASE_URL: forwarder.url };
    const requests = service.accessLog.length;
    const dry = await run([...files, "--start", "2026-10-28", "--dry-run"], NOW, moved);
    const refused = await run([...files, "--start", "2026-10-28"], NOW, moved);
    for (const result of [dry, refused]) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `^adreport: job [0-9a-f]{8} would start on \\S+/out/\\{date\\}\\.csv, which job ${oldId} writes \\(last day 2026-11-01\\): it differs in base URL ${service.url} -> ${forwarder.url}\nhint: if job ${oldId} is done with it, forget it first: adreport state reset ${oldId} \\(this job then starts at --start\\); else give this job its own -o\n$`,
        ),
      );
    }
    expect(service.accessLog.length, "requests made by refused runs").toBe(requests);
    expect(forwarder.froms).toEqual([]);
    expect(readdirSync(folder).filter((name) => name.endsWith(".json") && !name.endsWith(".run.json"))).toEqual([old]);
    expect(readdirSync(join(dir, "out")).map((name) => [name, statSync(join(dir, "out", name)).mtimeMs])).toEqual(
      written,
    );
    // The old job goes on as before; the hint runs as printed, and the new job then starts on the files.
    expect((await run(files, NOW)).code).toBe(0);
    expect((await run(["state", "reset", oldId], NOW)).code).toBe(0);
    const taken = await run([...files, "--start", "2026-10-28"], NOW, moved);
    expect(taken.code, taken.stderr).toBe(0);
  });

  it("a run without --incremental: the job's own query may rewrite its days; another query is refused", async () => {
    const { dir, run, service } = await newService();
    mkdirSync(join(dir, "out"));
    const files = ["report", "--dims", "campaign,date", "-o", "out/{date}.csv", "-q"];
    expect((await run([...files, "--incremental", "--start", "2026-10-28"], NOW)).code).toBe(0);
    const range = ["--from", "2026-10-29", "--to", "2026-10-30"];
    expect((await run([...files, ...range], NOW)).code, "the job's own query, by hand").toBe(0);
    const requests = service.accessLog.length;
    const before = readFileSync(join(dir, "out", "2026-10-29.csv"), "utf8");
    for (const args of [[...range, "--dry-run"], range]) {
      const other = await run([...files, ...args, "--metrics", "views"], NOW);
      expect(other.code, other.stderr).toBe(2);
      expect(other.stderr).toMatch(/^adreport: job [0-9a-f]{8} would write \S+\/out\/\{date\}\.csv, /);
      expect(other.stderr).toMatch(
        /\nhint: run it with job ([0-9a-f]{8})'s query, or give this run its own -o; if job \1 is done with it: adreport state reset \1\n$/,
      );
      expect(other.stderr).toMatch(
        /which job [0-9a-f]{8} writes \(last day 2026-11-01\): it differs in metrics views,spending,clicks,conversions -> views\n/,
      );
    }
    expect(service.accessLog.length).toBe(requests);
    expect(readFileSync(join(dir, "out", "2026-10-29.csv"), "utf8")).toBe(before);
  });

  it("a table: a new job may not start on the rows another job writes for the same profile", async () => {
    const { run, service } = await newService();
    const table = ["report", "--dims", "campaign,date", "-o", "sqlite:ads.db", "--incremental", "-q"];
    expect((await run([...table, "--start", "2026-10-28"], NOW)).code).toBe(0);
    const forwarder = await startForwarder(service.url);
    const moved = await run([...table, "--start", "2026-10-28"], NOW, { ADREPORT_BASE_URL: forwarder.url });
    expect(moved.code).toBe(2);
    expect(moved.stderr).toMatch(
      /^adreport: job [0-9a-f]{8} would start on the rows without a profile of sqlite:\S+ads\.db#adreport_campaign_date, which job [0-9a-f]{8} writes/,
    );
  });
});
