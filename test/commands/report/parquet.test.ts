/**
 * `-o FILE.parquet` and `-f parquet` in this process against a real `serve`, read back by DuckDB
 * (`read_parquet`) and compared value by value with the CSV export of the same report: every id, count,
 * date and name, spending in micros, NULL where CSV has an empty cell; the column types; hostile names byte
 * for byte; the same bytes from the same data; binary never to a terminal; several accounts in one file.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parquetMetadata } from "hyparquet";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { columnTypes, csvRows, duckdb, micros, parquetOf, parquetRows, sqlText } from "../../helpers/parquet-read";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { SMALL_DEMO, serveLinesWithKey, startTestService } from "../../helpers/serve";
import type { CliResult } from "../../helpers/spawn-cli";
import { tempDir } from "../../helpers/temp";

const service = await startTestService({
  demo: { ...SMALL_DEMO, advertisers: 2 },
  keys: [
    { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
    { advertiser: "Globex, Inc.", ips: ["127.0.0.1"] },
  ],
});
const [KEY, OTHER] = service.keys as [string, string];
const NOW = new Date("2026-11-02T09:30:00Z");
const WEEK = ["--from", "2026-10-05", "--to", "2026-10-11"];

async function report(args: string[], cwd: string, options: { key?: string; outIsTTY?: boolean } = {}) {
  const result = await runInProcess(["report", ...args], {
    env: {
      ADREPORT_CONFIG_DIR: join(cwd, "config"),
      ADREPORT_API_KEY: options.key ?? KEY,
      ADREPORT_BASE_URL: service.url,
    },
    now: NOW,
    cwd,
    ...(options.outIsTTY !== undefined ? { outIsTTY: options.outIsTTY } : {}),
  });
  for (const key of [KEY, OTHER]) expect(result.stderr).not.toContain(key.slice(4));
  return result;
}

function ok(result: CliResult): CliResult {
  expect(result.code, result.stderr).toBe(0);
  return result;
}

/** The same report as CSV and as Parquet, in `dir`: the CSV's rows and the Parquet file's path. */
async function bothWays(args: string[], dir: string, key?: string) {
  ok(await report([...args, "-o", "same.csv"], dir, { key }));
  ok(await report([...args, "-o", "same.parquet"], dir, { key }));
  return { csv: csvRows(readFileSync(join(dir, "same.csv"), "utf8")), parquet: join(dir, "same.parquet") };
}

/** Every cell of the CSV equals the Parquet file's value of it, in its own terms. */
async function expectSameValues(csv: Array<Record<string, string>>, path: string, types: Record<string, string>) {
  const rows = await parquetRows(path);
  expect(rows).toHaveLength(csv.length);
  expect(Object.keys(types)).toEqual(Object.keys(csv[0] ?? {}));
  csv.forEach((cells, at) => {
    const row = rows[at] as Record<string, string | null>;
    for (const [column, cell] of Object.entries(cells)) {
      const value = row[column] ?? null;
      const where = `row ${at + 1}, ${column}`;
      if (cell === "") {
        expect(value, where).toBeNull();
        continue;
      }
      expect(value, where).not.toBeNull();
      const type = types[column] as string;
      if (type.startsWith("TIMESTAMP")) expect(BigInt(value as string), where).toBe(BigInt(Date.parse(cell)) * 1000n);
      else if (type.startsWith("DECIMAL")) expect(micros(value as string), where).toBe(micros(cell));
      else if (type === "BIGINT") expect(BigInt(value as string), where).toBe(BigInt(cell));
      else if (type === "DOUBLE") expect(Number(value), where).toBe(Number(cell));
      else expect(Buffer.from(value as string), where).toEqual(Buffer.from(cell));
    }
  });
}

describe.concurrent("parquet exports read by DuckDB", () => {
  it("an hourly ad,date export: every value the CSV has, typed; counts and spending sum to the CSV's", async () => {
    const dir = tempDir();
    const args = [
      ...WEEK,
      "--dims",
      "ad,date",
      "--granularity",
      "hour",
      "--metrics",
      "views,spending,clicks,conversions",
    ];
    const { csv, parquet } = await bothWays(args, dir);
    expect(csv.length).toBeGreaterThan(100);
    const types = await columnTypes(parquet);
    expect(types).toEqual({
      ad_id: "BIGINT",
      name: "VARCHAR",
      campaign_id: "BIGINT",
      date: "TIMESTAMP WITH TIME ZONE",
      views: "BIGINT",
      spending: "DECIMAL(18,6)",
      clicks: "BIGINT",
      conversions: "BIGINT",
    });
    await expectSameValues(csv, parquet, types);
    const [sums] = await duckdb(
      `SELECT count(*) AS n, CAST(sum(views) AS VARCHAR) AS views, CAST(sum(spending) AS VARCHAR) AS spending FROM ${parquetOf(parquet)}`,
    );
    expect(Number(sums?.n)).toBe(csv.length);
    expect(BigInt(String(sums?.views))).toBe(csv.reduce((sum, row) => sum + BigInt(row.views as string), 0n));
    expect(micros(String(sums?.spending))).toBe(csv.reduce((sum, row) => sum + micros(row.spending as string), 0n));
  });

  it("a daily campaign,date export with ratios: DATE, DOUBLE, and NULL where CSV is empty", async () => {
    const dir = tempDir();
    const args = [...WEEK, "--dims", "campaign,date", "--metrics", "views,clicks,spending,conversions,ctr,cpc,cpa"];
    const { csv, parquet } = await bothWays(args, dir);
    const types = await columnTypes(parquet);
    expect(types).toMatchObject({ campaign_id: "BIGINT", date: "DATE", ctr: "DOUBLE", cpc: "DOUBLE", cpa: "DOUBLE" });
    expect(csv.some((row) => row.cpa === "")).toBe(true);
    await expectSameValues(csv, parquet, types);
    const [nulls] = await duckdb(`SELECT count(*) FILTER (WHERE cpa IS NULL) AS n FROM ${parquetOf(parquet)}`);
    expect(Number(nulls?.n)).toBe(csv.filter((row) => row.cpa === "").length);
  });

  it("--compare, --tz, --fields and --date-format epoch: the CSV's values, typed (local dates, _prev, _change)", async () => {
    const dir = tempDir();
    const cases = [
      ["--dims", "campaign", "--compare", "previous", "--metrics", "views,spending,ctr"],
      [
        "--dims",
        "campaign,date",
        "--tz",
        "Asia/Tokyo",
        "--metrics",
        "spending,clicks",
        "--fields",
        "spending,date,name",
      ],
      ["--dims", "ad,date", "--granularity", "hour", "--tz", "America/New_York", "--metrics", "views"],
      ["--dims", "campaign,date", "--granularity", "week", "--metrics", "views", "--date-format", "epoch"],
    ];
    for (const args of cases) {
      ok(await report([...WEEK, ...args, "-o", "same.csv", "--date-format", "iso"], dir));
      ok(await report([...WEEK, ...args, "-o", "same.parquet"], dir));
      const csv = csvRows(readFileSync(join(dir, "same.csv"), "utf8"));
      expect(csv.length, args.join(" ")).toBeGreaterThan(0);
      const parquet = join(dir, "same.parquet");
      const types = await columnTypes(parquet);
      if (args.includes("--compare")) {
        expect(types).toMatchObject({ spending_prev: "DECIMAL(18,6)", views_prev: "BIGINT", views_change: "DOUBLE" });
      }
      if (args.includes("--fields")) expect(Object.keys(types)).toEqual(["spending", "date", "name"]);
      await expectSameValues(csv, parquet, types);
    }
  });

  it("a grand total and a keyword report: one row, and the keyword's text", async () => {
    const dir = tempDir();
    for (const dims of [[], ["--dims", "keyword"]]) {
      const { csv, parquet } = await bothWays([...WEEK, ...dims, "--metrics", "views,spending,clicks"], dir);
      await expectSameValues(csv, parquet, await columnTypes(parquet));
    }
  });

  it("the same data twice gives the same bytes: no time, random id or version inside", async () => {
    const dir = tempDir();
    const args = [...WEEK, "--dims", "ad,date", "--granularity", "hour", "--metrics", "views,spending"];
    ok(await report([...args, "-o", "one.parquet"], dir));
    ok(await report([...args, "-f", "parquet", "-o", "two.bin"], dir));
    const one = readFileSync(join(dir, "one.parquet"));
    expect(readFileSync(join(dir, "two.bin")).equals(one)).toBe(true);
    const footer = parquetMetadata(one.buffer.slice(one.byteOffset, one.byteOffset + one.byteLength));
    expect(footer.created_by).toBe("adreport");
    expect(footer.key_value_metadata ?? []).toEqual([]);
    expect(createHash("sha256").update(one).digest("hex")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("binary: refused on a terminal (exit 2), written to a pipe", async () => {
    const dir = tempDir();
    const args = [...WEEK, "--dims", "campaign", "--metrics", "views", "-f", "parquet"];
    const refused = await report(args, dir, { outIsTTY: true });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/^adreport: Parquet is binary: it is not written to a terminal\n/);
    expect(refused.stderr).toMatch(/-o report\.parquet/);
    const piped = ok(await report(args, dir, { outIsTTY: false }));
    expect(piped.stdout.startsWith("PAR1")).toBe(true);
    expect(piped.stdout.endsWith("PAR1")).toBe(true);
  });

  it("several accounts: one file with a profile column first, or a file per {profile}", async () => {
    const dir = tempDir();
    const config = configDirWith(
      {},
      { acme: { "api-key": KEY, "base-url": service.url }, globex: { "api-key": OTHER, "base-url": service.url } },
    );
    const run = (args: string[]) =>
      runInProcess(
        ["report", ...WEEK, "--profiles", "acme,globex", "--dims", "campaign", "--metrics", "views,spending", ...args],
        {
          env: { ADREPORT_CONFIG_DIR: config },
          now: NOW,
          cwd: dir,
        },
      );
    ok(await run(["-o", "all.csv"]));
    ok(await run(["-o", "all.parquet"]));
    const csv = csvRows(readFileSync(join(dir, "all.csv"), "utf8"));
    expect(new Set(csv.map((row) => row.profile))).toEqual(new Set(["acme", "globex"]));
    const types = await columnTypes(join(dir, "all.parquet"));
    expect(Object.keys(types)[0]).toBe("profile");
    await expectSameValues(csv, join(dir, "all.parquet"), types);
    ok(await run(["-o", "each-{profile}.parquet"]));
    for (const profile of ["acme", "globex"]) {
      const rows = await parquetRows(join(dir, `each-${profile}.parquet`));
      expect(rows.map((row) => row.name)).toEqual(csv.filter((row) => row.profile === profile).map((row) => row.name));
    }
  });
});

describe("parquet: names as advertisers type them", () => {
  it("quotes, line breaks, NUL, emoji and right-to-left marks survive byte for byte", async () => {
    const names = [
      'Spring "Sale", 50%',
      "line\nbreak\r\nand\rcr",
      "nul\u0000inside",
      "emoji 🚀👩‍👩‍👧 Ünïcødé",
      "rtl \u202eevil\u202c and \u200fmark\u200e",
      '=HYPERLINK("x")\ttab\\back',
      "  ",
    ];
    const lines = names.map((name, at) => ({
      advertiser: "Acme Outdoor",
      campaign_id: at + 1,
      campaign: name,
      ad_id: 10 * (at + 1),
      ad: `ad ${at}`,
      hour: "2026-10-05T13:00:00Z",
      views: 100 + at,
      clicks: at,
      bot_clicks: 0,
      spending: 0.000001 + at,
      conversions: 0,
    }));
    const hostile = await serveLinesWithKey("parquet-names", lines);
    const dir = tempDir();
    const run = (out: string) =>
      runInProcess(["report", ...WEEK, "--dims", "campaign", "--metrics", "views,spending", "-o", out], {
        env: {
          ADREPORT_CONFIG_DIR: join(dir, "config"),
          ADREPORT_API_KEY: hostile.key,
          ADREPORT_BASE_URL: hostile.url,
        },
        now: NOW,
        cwd: dir,
      });
    ok(await run("names.csv"));
    ok(await run("names.parquet"));
    const path = join(dir, "names.parquet");
    const rows = await duckdb(
      `SELECT name, CAST(spending AS VARCHAR) AS spending FROM ${parquetOf(path)} ORDER BY file_row_number`,
    );
    expect(rows.map((row) => Buffer.from(String(row.name)))).toEqual(names.map((name) => Buffer.from(name)));
    expect(rows.map((row) => micros(String(row.spending)))).toEqual(names.map((_n, at) => BigInt(at * 1e6 + 1)));
    await expectSameValues(csvRows(readFileSync(join(dir, "names.csv"), "utf8")), path, await columnTypes(path));
    const [found] = await duckdb(
      `SELECT count(*) AS n FROM ${parquetOf(path)} WHERE name = ${sqlText(names[0] as string)}`,
    );
    expect(Number(found?.n)).toBe(1);
  });
});
