/**
 * A database job's id leaves out its metrics now (they may grow). A state kept by an earlier build under
 * the id with the metrics in is the same job's: `--dry-run` finds it, and the next run takes it over (the
 * file renamed, a note said) and continues from its last day instead of asking for --start again.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { earlierJobId } from "../../src/state/job";
import { at, newService } from "../helpers/incremental";

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
