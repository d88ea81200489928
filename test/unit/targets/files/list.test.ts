/** listDayFiles: the day files of a `{date}` template that exist, by day, and nothing else. */
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { listDayFiles } from "../../../../src/targets/files/list";
import { tempDir } from "../../../helpers/temp";

function touch(dir: string, path: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), "x\n");
}

describe("listDayFiles", () => {
  it("lists the files of a template's file name, real days only, staged leftovers and the rest left out", async () => {
    const dir = tempDir();
    for (const name of ["2026-03-01.csv", "2026-03-02.csv", "2026-02-28.csv"]) touch(dir, `exports/${name}`);
    for (const other of [
      "2026-02-30.csv", // no such day
      "2026-3-03.csv",
      "2026-03-04.csv.bak",
      "x2026-03-05.csv",
      "2026-03-06.tsv",
      ".2026-03-07.csv.4242.0badcafe.tmp", // a staged file a killed run left
    ]) {
      touch(dir, `exports/${other}`);
    }
    execFileSync("mkfifo", [join(dir, "exports", "2026-03-08.csv")]);
    mkdirSync(join(dir, "exports", "2026-03-09.csv"));
    symlinkSync(join(dir, "exports", "2026-03-01.csv"), join(dir, "exports", "2026-03-10.csv"));
    symlinkSync(join(dir, "nowhere"), join(dir, "exports", "2026-03-11.csv"));
    const found = await listDayFiles("exports/{date}.csv", dir);
    expect([...found]).toEqual([
      ["2026-02-28", join(dir, "exports", "2026-02-28.csv")],
      ["2026-03-01", join(dir, "exports", "2026-03-01.csv")],
      ["2026-03-02", join(dir, "exports", "2026-03-02.csv")],
      // A link to a regular file is read through, as the export's own checks stat through it.
      ["2026-03-10", join(dir, "exports", "2026-03-10.csv")],
    ]);
    // The same, the template absolute.
    expect([...(await listDayFiles(join(dir, "exports/{date}.csv"), "/"))].map(([d]) => d)).toEqual([
      "2026-02-28",
      "2026-03-01",
      "2026-03-02",
      "2026-03-10",
    ]);
  });

  it("follows {date} in folder names, more than once, and only where the template leads", async () => {
    const dir = tempDir();
    touch(dir, "out/2026-03-01/campaigns.csv");
    touch(dir, "out/2026-03-02/campaigns.csv");
    touch(dir, "out/2026-03-03/ads.csv"); // another file of the day
    mkdirSync(join(dir, "out", "2026-03-04"));
    touch(dir, "out/2026-03-05/.campaigns.csv.4242.0badcafe.tmp");
    writeFileSync(join(dir, "out", "2026-03-06"), "a file where a folder is expected\n");
    touch(dir, "out/2026-03-07/nested/campaigns.csv");
    expect([...(await listDayFiles("out/{date}/campaigns.csv", dir)).keys()]).toEqual(["2026-03-01", "2026-03-02"]);

    touch(dir, "by-day/2026-03-01/report-2026-03-01.ndjson");
    touch(dir, "by-day/2026-03-02/report-2026-03-01.ndjson"); // the two dates differ: not the template's
    touch(dir, "by-day/2026-03-03/report-2026-03-03-2026-03-03.ndjson");
    expect([...(await listDayFiles("by-day/{date}/report-{date}.ndjson", dir))]).toEqual([
      ["2026-03-01", join(dir, "by-day", "2026-03-01", "report-2026-03-01.ndjson")],
    ]);
    expect([...(await listDayFiles("by-day/{date}/report-{date}-{date}.ndjson", dir)).keys()]).toEqual(["2026-03-03"]);
    // A folder name with the date twice, and characters a pattern would take for its own.
    touch(dir, "a+b (1)/2026-03-01_2026-03-01/x.json");
    touch(dir, "a+b (1)/2026-03-01_2026-03-02/x.json");
    expect([...(await listDayFiles("a+b (1)/{date}_{date}/x.json", dir)).keys()]).toEqual(["2026-03-01"]);
  });

  it("a folder that is missing, or not a folder, lists nothing; a template without {date} is a mistake", async () => {
    const dir = tempDir();
    expect((await listDayFiles("missing/{date}.csv", dir)).size).toBe(0);
    writeFileSync(join(dir, "plain"), "");
    expect((await listDayFiles("plain/{date}.csv", dir)).size).toBe(0);
    await expect(listDayFiles("out/report.csv", dir)).rejects.toThrow(/no \{date\}/);
  });
});
