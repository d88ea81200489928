/**
 * A job's state kept by an earlier adreport, its target one text (`sqlite:/abs/ads.db#t`, a template's
 * path): `state list` shows it as before, --dry-run and the next run continue the same job (the same id,
 * from its last day), `verify` reads its output, and the run keeps the target as its kind's data.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { targetText } from "../../../src/targets/registry";
import { at, newService } from "../../helpers/incremental";

const NOW = at("2026-11-02");
const LATER = at("2026-11-04");

describe("a state an earlier adreport wrote", () => {
  it.for([
    ["{date} files", ["-o", "out/{date}.csv"]],
    ["a SQLite table", ["-o", "sqlite:ads.db", "--table", "ads"]],
  ] as const)("%s: listed, continued and verified as the same job", async ([, output]) => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const job = ["report", "--dims", "campaign,date", ...output, "--incremental", "-q"];
    expect((await run([...job, "--start", "2026-10-28"], NOW)).code).toBe(0);
    const folder = join(dir, "config", "state");
    const [name] = readdirSync(folder).filter((n) => /^[0-9a-f]{8}\.json$/.test(n));
    const id = (name as string).slice(0, 8);
    const file = join(folder, name as string);
    const state = JSON.parse(readFileSync(file, "utf8"));
    const text = targetText(state.job.target);
    // As an earlier adreport left it: the target one text.
    writeFileSync(file, `${JSON.stringify({ ...state, job: { ...state.job, target: text } }, null, 2)}\n`);

    const list = await run(["state", "list", "--format", "json"], LATER);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject([{ job: id, output: text, last_day: "2026-11-01" }]);
    expect((await run(["verify", id], LATER)).code).toBe(0);

    const dry = await run([...job, "--dry-run"], LATER);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`job:      ${id}\n`);
    expect(dry.stdout).toContain("exists, last day 2026-11-01");

    const next = await run([...job, "--summary", "json"], LATER);
    expect(next.code, next.stderr).toBe(0);
    expect(readdirSync(folder).filter((n) => /^[0-9a-f]{8}\.json$/.test(n))).toEqual([name]);
    const kept = JSON.parse(readFileSync(file, "utf8"));
    expect(kept).toMatchObject({ id, lastDay: "2026-11-03", job: { target: state.job.target } });
  });
});
