/**
 * `serve load --from-export`: an export of serve A loaded into an empty serve B gives the same report from
 * both, hourly exactly and daily at each day's first hour; shapes it cannot load are refused with exit 2.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { serveInProcess } from "../../helpers/serve-in-process";
import { tempDir } from "../../helpers/temp";

const dir = tempDir();
const ADVERTISER = "Acme Outdoor";
let n = 0;

/** A database (demo data when `demo`), with a key for ADVERTISER from 127.0.0.1, served in this process. */
async function service(demo: boolean, load?: string[]) {
  n += 1;
  const db = join(dir, `db-${n}.db`);
  expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
  if (demo)
    expect((await runInProcess(["serve", "demo", "--db", db, "--days", "10", "--end", "2026-11-01"])).code).toBe(0);
  let loaded: { code: number | null; stderr: string } | undefined;
  if (load) loaded = await runInProcess(["serve", "load", "--db", db, ...load], { cwd: dir });
  const key = await runInProcess([
    "serve",
    "key",
    "issue",
    "--db",
    db,
    "--advertiser",
    ADVERTISER,
    "--ip",
    "127.0.0.1",
  ]);
  const serve = await serveInProcess(["--db", db, "--quiet"]);
  return { db, url: serve.url, key: key.stdout.trim(), serve, loaded };
}

const RANGE = ["--from", "2026-10-24", "--to", "2026-10-30"];
async function report(s: { url: string; key: string }, args: string[]) {
  const result = await runInProcess(["report", ...RANGE, "--base-url", s.url, ...args], {
    env: { ADREPORT_API_KEY: s.key },
  });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

let a: Awaited<ReturnType<typeof service>>;
beforeAll(async () => {
  a = await service(true);
});

function exportFile(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return name;
}

describe("serve load --from-export", () => {
  it.each([
    ["campaign", "hour", ["campaign,date", "date", ""]],
    // An ad export carries no campaign names: reports by campaign differ in those.
    ["ad", "hour", ["ad,date", "date", ""]],
    ["campaign", "day", ["campaign,date", "date", ""]],
  ])("round trip of a %s export by %s: the same reports from both", async (entity, granularity, dims) => {
    const exported = await report(a, ["--dims", `${entity},date`, "--granularity", granularity, "-f", "ndjson"]);
    expect(exported.split("\n").length).toBeGreaterThan(20);
    const file = exportFile(`${entity}-${granularity}.ndjson`, exported);
    const b = await service(false, ["--from-export", file, "--advertiser", ADVERTISER]);
    expect(b.loaded?.code).toBe(0);
    expect(b.loaded?.stderr).toContain(granularity === "hour" ? ", hourly, " : ", daily, ");
    if (granularity === "day") expect(b.loaded?.stderr).toContain("loaded at the first hour of their day");
    for (const d of dims) {
      const args = [...(d === "" ? [] : ["--dims", d, "--granularity", granularity]), "-f", "csv"];
      expect(await report(b, args)).toBe(await report(a, args));
    }
    await b.serve.stop();
  });

  it("a daily export in a zone (--tz): daily, loaded at each zone day's first hour; the same zone's days from both", async () => {
    const zoned = ["--dims", "campaign,date", "--granularity", "day", "--tz", "Europe/Paris", "-f", "csv"];
    const exported = await report(a, [...zoned.slice(0, -2), "-f", "ndjson"]);
    const b = await service(false, [
      "--from-export",
      exportFile("paris-days.ndjson", exported),
      "--advertiser",
      ADVERTISER,
    ]);
    expect(b.loaded?.code).toBe(0);
    expect(b.loaded?.stderr).toContain(", daily, ");
    expect(await report(b, zoned)).toBe(await report(a, zoned));
    expect(await report(b, ["--tz", "Europe/Paris", "-f", "csv"])).toBe(
      await report(a, ["--tz", "Europe/Paris", "-f", "csv"]),
    );
    await b.serve.stop();
  });

  it("a weekly export in a zone is refused, as in UTC", async () => {
    const exported = await report(a, [
      "--dims",
      "campaign,date",
      "--granularity",
      "week",
      "--tz",
      "Europe/Paris",
      "-f",
      "ndjson",
    ]);
    n += 1;
    const db = join(dir, `weekly-zone-${n}.db`);
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    const result = await runInProcess(
      ["serve", "load", "--db", db, "--from-export", exportFile("paris-weeks.ndjson", exported)],
      { cwd: dir },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("cannot tell daily from weekly or monthly buckets");
  });

  it("loads a metric the export lacks as 0, and says so", async () => {
    const exported = await report(a, ["--dims", "campaign,date", "--metrics", "views,clicks", "-f", "ndjson"]);
    const b = await service(false, ["--from-export", exportFile("some.ndjson", exported)]);
    expect(b.loaded?.stderr).toContain("the export has no spending, conversions: loaded as 0");
    expect(b.loaded?.stderr).toContain('for advertiser "Imported" (--advertiser to change)');
    await b.serve.stop();
  });

  it.each([
    [
      "weekly",
      ["--dims", "campaign,date", "--granularity", "week"],
      "every date is a Monday: weekly buckets cannot be loaded",
    ],
    ["monthly", ["--dims", "campaign,date", "--granularity", "month"], "every date is the 1st of a month"],
    ["without an entity", ["--dims", "date"], "no campaign or ad; export with one among the dimensions"],
    ["without dates", ["--dims", "campaign"], "no date; export with date among the dimensions"],
  ])("refuses an export %s with exit 2 saying why", async (_what, args, why) => {
    const exported = await report(a, [...args, "-f", "ndjson"]);
    n += 1;
    const db = join(dir, `refused-${n}.db`);
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    const result = await runInProcess(
      ["serve", "load", "--db", db, "--from-export", exportFile(`r${n}.ndjson`, exported)],
      {
        cwd: dir,
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(why);
    expect(result.stderr.split("\n")[0]).toMatch(/^adreport: --from-export: r\d+\.ndjson: /);
  });

  it("refuses other input with exit 2: CSV, a missing file, odd flags", async () => {
    const db = join(dir, "odd.db");
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    const load = (args: string[]) => runInProcess(["serve", "load", "--db", db, ...args], { cwd: dir });
    const csv = await load(["--from-export", exportFile("x.csv", "campaign_id,name\n1,a\n")]);
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain("line 1: not JSON");
    const missing = await load(["--from-export", "nope.ndjson"]);
    expect(missing.stderr).toBe("adreport: --from-export: nope.ndjson: no such file\n");
    expect((await load(["--from-export", "x.csv", "--granularity", "week"])).stderr).toContain("is not hour or day");
    expect((await load(["--advertiser", "A"])).code).toBe(2);
    expect((await load([])).stderr).toContain("nothing to load");
    const half = '{"dimensions":{"campaign_id":1,"name":"a","date":1793491200},"metrics":{"views":1}}\n';
    const mixed = await load([
      "--from-export",
      exportFile(
        "mixed.ndjson",
        `${half}{"dimensions":{"ad_id":2,"name":"b","campaign_id":1,"date":1793491200},"metrics":{}}\n`,
      ),
    ]);
    expect(mixed.stderr).toContain("line 2: an ad row in an export of campaign rows");
    const offHour = await load(["--from-export", exportFile("off.ndjson", half.replace("1793491200", "1793491260"))]);
    expect(offHour.stderr).toContain("line 1: dimensions.date 1793491260 is not the start of an hour");
    // Nothing of a refused export was loaded: not even its advertiser.
    const keyless = await runInProcess(["serve", "key", "issue", "--db", db, "--advertiser", "Imported"]);
    expect(keyless.stderr).toContain('no advertiser named "Imported"; known advertisers: none yet');
  });

  it("a line the loader refuses is named by the export file and its line, not a temporary file", async () => {
    const db = join(dir, "conflict.db");
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    const file = exportFile(
      "conflict.ndjson",
      '{"dimensions":{"campaign_id":1,"name":"a","date":1793538000},"metrics":{"views":1}}\n',
    );
    expect((await runInProcess(["serve", "load", "--db", db, "--from-export", file], { cwd: dir })).code).toBe(0);
    const again = await runInProcess(["serve", "load", "--db", db, "--from-export", file, "--advertiser", "Other"], {
      cwd: dir,
    });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("conflict.ndjson:1: campaign 1 already belongs to another advertiser");
    expect(again.stderr).not.toContain("adreport-load-");
  });

  it("an export of several profiles (report --profiles): each profile's rows are an advertiser of their own", async () => {
    const db = join(dir, "profiles.db");
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    const row = (profile: string, id: number, views: number) =>
      `{"profile":"${profile}","dimensions":{"campaign_id":${id},"name":"c${id}","date":1793538000},"metrics":{"views":${views}}}\n`;
    const file = exportFile("profiles.ndjson", row("acme", 1, 5) + row("acme", 2, 6) + row("globex", 3, 7));
    const loaded = await runInProcess(["serve", "load", "--db", db, "--from-export", file], { cwd: dir });
    expect(loaded.stderr).toContain('for advertisers "acme", "globex" (each profile\'s rows)');
    expect(loaded.code).toBe(0);
    const merged = await runInProcess(["serve", "load", "--db", db, "--from-export", file, "--advertiser", "X"], {
      cwd: dir,
    });
    expect(merged.code).toBe(2);
    expect(merged.stderr).toContain("rows of several profiles");
    const keys: Record<string, string> = {};
    for (const advertiser of ["acme", "globex"]) {
      const issued = await runInProcess([
        "serve",
        "key",
        "issue",
        "--db",
        db,
        "--advertiser",
        advertiser,
        "--ip",
        "127.0.0.1",
      ]);
      keys[advertiser] = issued.stdout.trim();
    }
    const serve = await serveInProcess(["--db", db, "--quiet"]);
    try {
      const views = async (advertiser: string) => {
        const result = await runInProcess(
          [
            "report",
            "--from",
            "2026-11-01",
            "--to",
            "2026-11-01",
            "--dims",
            "campaign",
            "--metrics",
            "views",
            "-f",
            "csv",
            "--base-url",
            serve.url,
          ],
          { env: { ADREPORT_API_KEY: keys[advertiser] } },
        );
        return result.stdout;
      };
      expect(await views("acme")).toBe("campaign_id,name,views\n1,c1,5\n2,c2,6\n");
      expect(await views("globex")).toBe("campaign_id,name,views\n3,c3,7\n");
    } finally {
      await serve.stop();
    }
  });
});
