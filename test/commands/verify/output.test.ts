/**
 * `verify -o FILE` and `-f`, as `report` has them: the result (the JSON document or a line a differing day)
 * written atomically to FILE, its format from -f or the file's ending, stdout left empty; a result file that
 * cannot be written is refused before any day is repaired.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { at, newService } from "../../helpers/incremental";

const NOW = at("2026-11-02");

describe("verify -o FILE and -f", () => {
  it("writes the result to FILE (json by its ending or -f), and refuses an unwritable one before repairing", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const args = ["report", "--dims", "campaign,date", "-o", "out/{date}.csv", "--incremental", "-q"];
    expect((await run([...args, "--start", "2026-10-01"], NOW)).code).toBe(0);
    const [{ job }] = JSON.parse((await run(["state", "list", "--format", "json"], NOW)).stdout) as [{ job: string }];
    rmSync(join(dir, "out", "2026-10-05.csv"));

    const json = await run(["verify", job, "-o", "verify.json"], NOW);
    expect(json.code, json.stderr).toBe(7);
    expect(json.stdout).toBe("");
    const document = JSON.parse(readFileSync(join(dir, "verify.json"), "utf8"));
    expect(document).toMatchObject({ job, days_checked: 32, differences: [{ day: "2026-10-05", kind: "missing" }] });

    const text = await run(["verify", job, "-o", "verify.txt"], NOW);
    expect(text.code).toBe(7);
    expect(readFileSync(join(dir, "verify.txt"), "utf8")).toMatch(/^2026-10-05 {2}file missing: .*\n$/);
    const short = await run(["verify", job, "-f", "json", "-o", "-"], NOW);
    expect(JSON.parse(short.stdout)).toEqual(document);

    const nowhere = await run(["verify", job, "--repair", "-o", "no/such/folder/verify.json"], NOW);
    expect(nowhere.code, nowhere.stderr).toBe(2);
    expect(nowhere.stderr).toMatch(/^adreport: cannot write no\/such\/folder\/verify\.json: no such folder$/m);
    expect(nowhere.stderr).not.toMatch(/repairing/);
    expect(existsSync(join(dir, "out", "2026-10-05.csv"))).toBe(false);

    const repaired = await run(["verify", job, "--repair", "-o", "verify.json"], NOW);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "verify.json"), "utf8"))).toMatchObject({
      days_repaired: 1,
      not_repaired: [],
      differences: [],
    });
  });

  it("refuses -o into a missing folder, or through a file, as report -o does: exit 2 and the command that mends it", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const args = ["report", "--dims", "campaign,date", "-o", "out/{date}.csv", "--incremental", "-q"];
    expect((await run([...args, "--start", "2026-10-01"], NOW)).code).toBe(0);
    const [{ job }] = JSON.parse((await run(["state", "list", "--format", "json"], NOW)).stdout) as [{ job: string }];

    const missing = await run(["verify", job, "-o", "missing/x.json"], NOW);
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toBe(
      "adreport: cannot write missing/x.json: no such folder\nhint: create it first: mkdir -p missing\n",
    );
    const report = await run(["report", "--dims", "campaign", "--from", "2026-10-01", "-o", "missing/x.csv"], NOW);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain("hint: create it first: mkdir -p missing\n");

    const through = await run(["verify", job, "-o", "out/2026-10-01.csv/x.json"], NOW);
    expect(through.code, through.stderr).toBe(2);
    expect(through.stderr).toMatch(
      /^adreport: cannot write out\/2026-10-01\.csv\/x\.json: out\/2026-10-01\.csv is not a folder$/m,
    );
    expect(existsSync(join(dir, "missing"))).toBe(false);
  });
});
