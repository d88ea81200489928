/**
 * `-o duckdb:PATH` against a real `serve`, read back by a second DuckDB connection of the test's own:
 * every value as the CSV export of the same report says it (ids, counts, spending in micros, names byte
 * for byte, NULLs), through unchanged, restated and failed incremental runs; hostile names; the types a
 * DuckDB user queries (DATE or TIMESTAMP, BIGINT, DECIMAL(20,6), VARCHAR); the ledger and run ids.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";
import { duckdbRows, micros, parseCsv } from "../../helpers/duckdb";
import { startFakeService } from "../../helpers/fake-service";
import type { RefLine } from "../../helpers/reference";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { tempDir } from "../../helpers/temp";

const at = (day: string) => new Date(`${day}T06:00:00Z`);
const NOW = at("2026-11-20");

/** A table's rows as the CSV export's cells: NULL as an empty cell, spending in micros, hours as CSV writes them. */
async function tableAsCells(path: string, table: string, header: readonly string[]): Promise<string[][]> {
  const types = new Map(
    (await duckdbRows(path, `SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = '${table}'`)).map(
      ([name, type]) => [String(name), String(type)],
    ),
  );
  const select = header.map((name) => {
    const type = types.get(name);
    const column = `"${name}"`;
    if (type === "TIMESTAMP") return `strftime(${column}, '%Y-%m-%dT%H:%M:%SZ')`;
    if (type === "DATE") return `strftime(${column}, '%Y-%m-%d')`;
    if (type?.startsWith("DECIMAL")) return `CAST(${column} * 1000000 AS BIGINT)`;
    return column;
  });
  const rows = await duckdbRows(path, `SELECT ${select.join(", ")} FROM "${table}"`);
  return rows.map((row) => row.map((value) => (value === null ? "" : String(value))));
}

/** The CSV export's rows, spending in micros (exactly, from its text), in the header's order. */
function csvCells(csv: string): { header: string[]; rows: string[][] } {
  const [header = [], ...rows] = parseCsv(csv);
  const money = header.indexOf("spending");
  return {
    header,
    rows: rows.map((row) => row.map((cell, i) => (i === money && cell !== "" ? String(micros(cell)) : cell))),
  };
}

const sorted = (rows: string[][]) => [...rows].sort((a, b) => (a.join("\u0001") < b.join("\u0001") ? -1 : 1));

describe("-o duckdb: against the CSV export of the same report", () => {
  it("ad,date by hour: every value, typed columns, the ledger and one run id", async () => {
    const { dir, run } = await startDemoService({ now: NOW });
    const args = ["report", "--dims", "ad,date", "--granularity", "hour", "--from", "2026-10-24", "--to", "2026-10-25"];
    const written = await run([...args, "-o", "duckdb:ads.duckdb"]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stderr).toBe("");
    const csv = await run([...args, "-f", "csv", "-o", "-"]);
    expect(csv.code, csv.stderr).toBe(0);
    const { header, rows } = csvCells(csv.stdout);
    expect(rows.length).toBeGreaterThan(50);
    const path = join(dir, "ads.duckdb");
    expect(sorted(await tableAsCells(path, "adreport_ad_date", header))).toEqual(sorted(rows));

    const types = await duckdbRows(
      path,
      "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 'adreport_ad_date' ORDER BY column_index",
    );
    expect(types).toEqual([
      ["ad_id", "BIGINT"],
      ["name", "VARCHAR"],
      ["campaign_id", "BIGINT"],
      ["date", "TIMESTAMP"],
      ["views", "BIGINT"],
      ["spending", "DECIMAL(20,6)"],
      ["clicks", "BIGINT"],
      ["conversions", "BIGINT"],
      ["profile", "VARCHAR"],
      ["query_scope", "VARCHAR"],
      ["exported_at", "TIMESTAMP"],
      ["run_id", "VARCHAR"],
    ]);
    const spending = rows.reduce((sum, row) => sum + BigInt(row[header.indexOf("spending")] as string), 0n);
    const [[runs, runId, stamp]] = (await duckdbRows(
      path,
      "SELECT count(DISTINCT run_id), min(run_id), strftime(min(exported_at), '%Y-%m-%dT%H:%M:%SZ') FROM adreport_ad_date",
    )) as [[bigint, string, string]];
    expect(runs).toBe(1n);
    expect(stamp).toBe("2026-11-20T06:00:00Z");
    const loads = await duckdbRows(
      path,
      "SELECT strftime(day, '%Y-%m-%d'), row_count, sums, run_id, target_table FROM adreport_loads ORDER BY day",
    );
    expect(loads.map((row) => row[0])).toEqual(["2026-10-24", "2026-10-25"]);
    expect(loads.every((row) => row[3] === runId && row[4] === "adreport_ad_date")).toBe(true);
    expect(loads.reduce((sum, row) => sum + (row[1] as bigint), 0n)).toBe(BigInt(rows.length));
    const ledger = loads.reduce((sum, row) => sum + BigInt(JSON.parse(row[2] as string).spending), 0n);
    expect(ledger).toBe(spending);

    // A day table of the same file beside it: DATE for days.
    const days = await run([
      "report",
      "--dims",
      "campaign,date",
      "--from",
      "2026-10-24",
      "--to",
      "2026-10-25",
      "-o",
      "duckdb:ads.duckdb",
    ]);
    expect(days.code, days.stderr).toBe(0);
    expect(
      await duckdbRows(
        path,
        "SELECT data_type FROM duckdb_columns() WHERE table_name = 'adreport_campaign_date' AND column_name = 'date'",
      ),
    ).toEqual([["DATE"]]);
  });

  it("hostile names and NULLs from the service survive byte for byte", async () => {
    const names = [
      `quote ' and "double" and \`back\``,
      "line\nbreak and cr\r and tab\t",
      "nul \u0000 inside",
      "emoji 🌞🏳️‍🌈 and é",
      "rtl \u202Eevil\u202C and \u200F mark",
      "=cmd|' /C calc'!A0",
      null,
    ];
    const day = Date.UTC(2026, 9, 25) / 1000;
    // The contract's metrics are numbers; one the service leaves out of a row is NULL, as an empty CSV cell.
    const data = names.map((name, i) => ({
      dimensions: { campaign_id: 9_007_199_254_740_000 + i, name, date: day },
      metrics: {
        views: i * 1000,
        ...(i === 3 ? {} : { spending: 1234567.123456 + i }),
        ...(i === 2 ? {} : { clicks: i }),
      },
    }));
    const service = await startFakeService({
      rows: data.length,
      rowsOf: () => data,
      meta: () => ({ granularity: "day", dimensions: ["campaign", "date"], metrics: ["views", "spending", "clicks"] }),
    });
    try {
      const dir = tempDir();
      const env = {
        ADREPORT_CONFIG_DIR: join(dir, "config"),
        ADREPORT_API_KEY: "k".repeat(32),
        ADREPORT_BASE_URL: service.url,
      };
      const args = [
        "report",
        "--dims",
        "campaign,date",
        "--metrics",
        "views,spending,clicks",
        "--from",
        "2026-10-25",
        "--to",
        "2026-10-25",
      ];
      const written = await runInProcess([...args, "-o", "duckdb:hostile.duckdb"], { env, now: NOW, cwd: dir });
      expect(written.code, written.stderr).toBe(0);
      const csv = await runInProcess([...args, "-f", "csv", "-o", "-"], { env, now: NOW, cwd: dir });
      expect(csv.code, csv.stderr).toBe(0);
      const { header, rows } = csvCells(csv.stdout);
      expect(rows).toHaveLength(names.length);
      const path = join(dir, "hostile.duckdb");
      expect(sorted(await tableAsCells(path, "adreport_campaign_date", header))).toEqual(sorted(rows));
      // NULL, not an empty text; every name's bytes as sent.
      const stored = await duckdbRows(
        path,
        "SELECT name, spending IS NULL, clicks IS NULL FROM adreport_campaign_date ORDER BY campaign_id",
      );
      expect(stored.map((row) => row[0])).toEqual(names);
      expect(stored.map((row) => row[1])).toEqual(names.map((_, i) => i === 3));
      expect(stored.map((row) => row[2])).toEqual(names.map((_, i) => i === 2));
    } finally {
      await service.close();
    }
  });
});

describe("-o duckdb: spending as the CSV export says it, to the micro", () => {
  it("amounts of 6 decimals above 2^32 (a double DuckDB casts to DECIMAL was a micro off)", async () => {
    // Sums the service may send (up to 9 billion per stored hour, more in a row's sum); each is a double
    // whose shortest text is the amount: the CSV's text, and what the table must hold.
    const amounts = [
      4427846499.313605, 4391438282.438047, 8642832843.16125, 8776388596.63593, 8589934591.999999, 9e9, 0.000001, 0.285,
      2.675, 4294967296.000001,
    ];
    // A day each: a day's sum above 2^53 micros (9 billion) is more than the ledger's numbers hold.
    const day = (i: number) => Date.UTC(2026, 9, 20 + i) / 1000;
    const data = amounts.map((spending, i) => ({
      dimensions: { campaign_id: i + 1, name: `c${i}`, date: day(i) },
      metrics: { views: i, spending },
    }));
    const service = await startFakeService({
      rows: data.length,
      rowsOf: () => data,
      meta: () => ({ granularity: "day", dimensions: ["campaign", "date"], metrics: ["views", "spending"] }),
    });
    try {
      const dir = tempDir();
      const env = {
        ADREPORT_CONFIG_DIR: join(dir, "config"),
        ADREPORT_API_KEY: "k".repeat(32),
        ADREPORT_BASE_URL: service.url,
      };
      const args = ["report", "--dims", "campaign,date", "--metrics", "views,spending", "--from", "2026-10-20"];
      const range = [...args, "--to", "2026-10-29"];
      const written = await runInProcess([...range, "-o", "duckdb:money.duckdb"], { env, now: NOW, cwd: dir });
      expect(written.code, written.stderr).toBe(0);
      const csv = await runInProcess([...range, "-f", "csv", "-o", "-"], { env, now: NOW, cwd: dir });
      expect(csv.code, csv.stderr).toBe(0);
      const { header, rows } = csvCells(csv.stdout);
      expect(rows).toHaveLength(amounts.length);
      const path = join(dir, "money.duckdb");
      expect(sorted(await tableAsCells(path, "adreport_campaign_date", header))).toEqual(sorted(rows));
      const ledger = await duckdbRows(path, "SELECT sums FROM adreport_loads ORDER BY day");
      expect(ledger.map((row) => String(JSON.parse(row[0] as string).spending))).toEqual(
        rows.map((row) => row[header.indexOf("spending")]),
      );
    } finally {
      await service.close();
    }
  });
});

describe("-o duckdb: --incremental", () => {
  it("holds what a full export says, through unchanged, restated and failed runs", async () => {
    const demo = await startDemoService();
    const { dir, service } = demo;
    const run = (args: string[], now: Date) => demo.run(args, now);
    const restate = async (day: string) => {
      const line = service.lines.find(
        (l) => l.hour.startsWith(day) && l.keyword_id === undefined && l.advertiser === "Acme Outdoor",
      ) as RefLine;
      await demo.load([{ ...line, spending: line.spending + 7.25, clicks: line.clicks + 2 }]);
    };
    const path = join(dir, "ads.duckdb");
    const table = async () => sorted(await tableAsCells(path, "adreport_campaign_date", HEADER));
    const full = async (from: string, to: string, now: Date) => {
      const result = await run(
        ["report", "--dims", "campaign,date", "--from", from, "--to", to, "-f", "csv", "-o", "-"],
        now,
      );
      expect(result.code, result.stderr).toBe(0);
      return sorted(csvCells(result.stdout).rows);
    };
    const HEADER = ["campaign_id", "name", "date", "views", "spending", "clicks", "conversions"];
    const CRON = ["report", "--dims", "campaign,date", "--incremental", "-o", "duckdb:ads.duckdb"];

    const first = await run([...CRON, "--start", "2026-10-20"], at("2026-10-30"));
    expect(first.code, first.stderr).toBe(0);
    expect(await table()).toEqual(await full("2026-10-20", "2026-10-29", at("2026-10-30")));

    const again = await run(CRON, at("2026-10-30"));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/->/);
    expect(await table()).toEqual(await full("2026-10-20", "2026-10-29", at("2026-10-30")));

    await restate("2026-10-28");
    const restated = await run(CRON, at("2026-11-02"));
    expect(restated.code, restated.stderr).toBe(0);
    expect(restated.stderr).toMatch(/^adreport: 2026-10-28: spending [\d,.]+ -> [\d,.]+, clicks/m);
    expect(await table()).toEqual(await full("2026-10-20", "2026-11-01", at("2026-11-02")));

    const before = await table();
    await restate("2026-10-31");
    await demo.reopen("reset-body:every3");
    const failed = await run([...CRON, "--page-size", "2", "--retries", "0", "--lookback", "10d"], at("2026-11-02"));
    expect(failed.code, failed.stderr).toBe(5);
    expect(await table()).toEqual(before);
    await demo.reopen();
    const next = await run(CRON, at("2026-11-02"));
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/2026-10-31: spending/);
    expect(await table()).toEqual(await full("2026-10-20", "2026-11-01", at("2026-11-02")));

    // Every run that wrote rows is in the ledger, each with its own run id on its rows.
    const [[ledgerRuns]] = (await duckdbRows(path, "SELECT count(DISTINCT run_id) FROM adreport_loads")) as [[bigint]];
    expect(ledgerRuns).toBeGreaterThanOrEqual(3n);
    const orphans = await duckdbRows(
      path,
      "SELECT count(*) FROM adreport_campaign_date t WHERE NOT EXISTS (SELECT 1 FROM adreport_loads l WHERE l.run_id = t.run_id)",
    );
    expect(orphans).toEqual([[0n]]);
  }, 60_000);
});

describe("-o duckdb: week and month buckets", () => {
  it.each(["month", "week"])("--granularity %s from mid-bucket, run twice: the same rows", async (unit) => {
    const { dir, run } = await startDemoService({ now: NOW });
    const args = [
      "report",
      "--dims",
      "campaign,date",
      "--granularity",
      unit,
      "--from",
      "2026-10-15",
      "--to",
      "2026-10-28",
    ];
    const csv = await run([...args, "-f", "csv", "-o", "-"]);
    expect(csv.code, csv.stderr).toBe(0);
    for (let i = 0; i < 2; i += 1) {
      const result = await run([...args, "-o", "duckdb:ads.duckdb"]);
      expect(result.code, result.stderr).toBe(0);
    }
    const { header, rows } = csvCells(csv.stdout);
    const path = join(dir, "ads.duckdb");
    expect(sorted(await tableAsCells(path, "adreport_campaign_date", header))).toEqual(sorted(rows));
  });
});
