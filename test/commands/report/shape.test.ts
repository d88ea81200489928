/**
 * Ratios, --fields, --sort/--top, --fill and --date-format through the CLI in this process against a real
 * `serve`, checked against sums computed independently from the loaded NDJSON (test/helpers/reference.ts)
 * and formulas written out here again on purpose.
 */
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";
import { type RefQuery, referenceRows } from "../../helpers/reference";
import { runInProcess } from "../../helpers/run-cli-in-process";
import type { CliResult } from "../../helpers/spawn-cli";

const { service, env } = await startDemoService();
const NOW = new Date("2026-11-02T09:30:00Z");

function report(args: string[]): Promise<CliResult> {
  return runInProcess(["report", ...args], {
    env,
    now: NOW,
  });
}

type Counters = Record<string, number>;
type RefRow = { dimensions: Record<string, unknown>; metrics: Counters };

function reference(query: Partial<RefQuery> & { fromMs: number; toMs: number }): RefRow[] {
  return referenceRows(service.lines, {
    advertiser: "Acme Outdoor",
    byDate: false,
    granularity: "day",
    metrics: ["views", "spending", "clicks", "conversions"],
    ...query,
  });
}

/** The formulas, written again: a ratio over 0 has no value. */
const EXPECTED: Record<string, (c: Counters) => number | null> = {
  ctr: (c) => ((c.views ?? 0) === 0 ? null : (c.clicks ?? 0) / (c.views ?? 0)),
  cpc: (c) => ((c.clicks ?? 0) === 0 ? null : (c.spending ?? 0) / (c.clicks ?? 0)),
  cpm: (c) => ((c.views ?? 0) === 0 ? null : ((c.spending ?? 0) * 1000) / (c.views ?? 0)),
  cvr: (c) => ((c.clicks ?? 0) === 0 ? null : (c.conversions ?? 0) / (c.clicks ?? 0)),
  cpa: (c) => ((c.conversions ?? 0) === 0 ? null : (c.spending ?? 0) / (c.conversions ?? 0)),
};
const RATIOS = Object.keys(EXPECTED);

function sum(rows: RefRow[]): Counters {
  const total: Counters = { views: 0, spending: 0, clicks: 0, conversions: 0 };
  for (const row of rows) for (const [k, v] of Object.entries(row.metrics)) total[k] = (total[k] ?? 0) + v;
  total.spending = Math.round((total.spending ?? 0) * 1e6) / 1e6;
  return total;
}

function expectRatio(actual: unknown, expected: number | null): void {
  if (expected === null) expect(actual).toBeNull();
  else expect(actual as number).toBeCloseTo(expected, 12);
}

function ndjson(stdout: string): Array<{ dimensions: Record<string, unknown>; metrics: Record<string, unknown> }> {
  return stdout
    .trim()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

const OCTOBER = { fromMs: Date.UTC(2026, 9, 1), toMs: Date.UTC(2026, 9, 31, 23, 59, 59) };
const OCT = ["--from", "2026-10-01", "--to", "2026-10-31"];

describe.concurrent("derived metrics", () => {
  it("computes every ratio from each row's counters, only the listed metrics, in the listed order", async () => {
    const result = await report([
      ...OCT,
      "--dims",
      "campaign,date",
      "--metrics",
      "cpa,clicks,ctr,cpc,cpm,cvr",
      "-f",
      "ndjson",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const rows = ndjson(result.stdout);
    const ref = reference({ ...OCTOBER, entity: "campaign", byDate: true });
    expect(rows).toHaveLength(ref.length);
    let noConversions = 0;
    rows.forEach((row, i) => {
      const counters = (ref[i] as RefRow).metrics;
      expect(row.dimensions).toEqual((ref[i] as RefRow).dimensions);
      expect(Object.keys(row.metrics)).toEqual(["cpa", "clicks", "ctr", "cpc", "cpm", "cvr"]);
      expect(row.metrics.clicks).toBe(counters.clicks);
      for (const ratio of RATIOS)
        expectRatio(row.metrics[ratio], (EXPECTED[ratio] as (c: Counters) => number | null)(counters));
      if (counters.conversions === 0) noConversions += 1;
    });
    // The data has rows without conversions: cpa had no value there, and was null, not Infinity or 0.
    expect(noConversions).toBeGreaterThan(0);
  });

  it("computes ratios after merging 90-day windows, from the summed counters", async () => {
    const result = await report([
      "--from",
      "2026-08-01",
      "--to",
      "2026-11-01",
      "--dims",
      "campaign",
      "--metrics",
      "ctr,cpa,cvr",
      "-f",
      "json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const { data } = JSON.parse(result.stdout) as { data: RefRow[] };
    const ref = reference({
      fromMs: Date.UTC(2026, 7, 1),
      toMs: Date.UTC(2026, 10, 1, 23, 59, 59),
      entity: "campaign",
    });
    expect(data).toHaveLength(ref.length);
    data.forEach((row, i) => {
      for (const ratio of ["ctr", "cpa", "cvr"])
        expectRatio(
          row.metrics[ratio],
          (EXPECTED[ratio] as (c: Counters) => number | null)((ref[i] as RefRow).metrics),
        );
    });
  });

  it("writes a ratio without a value as an empty CSV cell", async () => {
    const result = await report([...OCT, "--dims", "campaign,date", "--metrics", "conversions,cpa", "-f", "csv"]);
    expect(result.code, result.stderr).toBe(0);
    const [header, ...lines] = result.stdout.trim().split("\n");
    expect(header).toBe("campaign_id,name,date,conversions,cpa");
    const zero = lines.find((line) => line.endsWith(",0,"));
    expect(zero).toBeDefined();
    expect(result.stdout).not.toMatch(/Infinity|NaN/);
  });

  it("writes a ratio without a value as an empty TSV field, and top rows with their count in JSON meta", async () => {
    const tsv = await report([...OCT, "--dims", "campaign,date", "--metrics", "conversions,cpa", "-f", "tsv"]);
    expect(tsv.code, tsv.stderr).toBe(0);
    expect(tsv.stdout.split("\n")[0]).toBe("campaign_id\tname\tdate\tconversions\tcpa");
    expect(tsv.stdout).toMatch(/\t0\t\n/);
    const json = await report([...OCT, "--dims", "ad", "--metrics", "ctr", "--top", "2", "-f", "json"]);
    const parsed = JSON.parse(json.stdout) as { meta: { total: number; metrics: string[] }; data: unknown[] };
    expect(parsed.meta).toMatchObject({ total: 2, metrics: ["ctr"] });
    expect(parsed.data).toHaveLength(2);
  });

  it("shows percentages, money and - in the table, and totals from summed counters", async () => {
    const result = await report([...OCT, "--dims", "campaign", "--metrics", "clicks,ctr,cpc,cpa", "-f", "table"]);
    expect(result.code, result.stderr).toBe(0);
    const ref = reference({ ...OCTOBER, entity: "campaign" });
    const total = sum(ref);
    const pct = (v: number) =>
      `${(v * 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}%`;
    const money = (v: number) => v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const footer = result.stdout.split("\n").find((line) => line.includes("total ("));
    expect(footer).toBeDefined();
    const cells = (footer as string).split("│").map((c) => c.trim());
    expect(cells).toContain(`total (${ref.length} rows)`);
    expect(cells).toContain(pct(EXPECTED.ctr?.(total) as number));
    expect(cells).toContain(money(EXPECTED.cpc?.(total) as number));
    expect(cells).toContain(money(EXPECTED.cpa?.(total) as number));
    const first = ref[0] as RefRow;
    expect(result.stdout).toContain(pct(EXPECTED.ctr?.(first.metrics) as number));
  });

  it("shows - in the table where a ratio has no value", async () => {
    const result = await report([...OCT, "--dims", "campaign,date", "--metrics", "conversions,cpa", "-f", "table"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/│\s+0 │\s+- │/);
  });

  it("refuses cvr and cpa with keyword, saying keywords have no conversions", async () => {
    const result = await report([...OCT, "--dims", "keyword", "--metrics", "clicks,cpa"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      "adreport: --metrics: cpa needs conversions, and keyword reports have no conversions",
    );
    const ctr = await report([...OCT, "--dims", "keyword", "--metrics", "ctr", "-f", "ndjson"]);
    expect(ctr.code, ctr.stderr).toBe(0);
    const ref = reference({ ...OCTOBER, entity: "keyword" });
    ndjson(ctr.stdout).forEach((row, i) => {
      expectRatio(row.metrics.ctr, EXPECTED.ctr?.((ref[i] as RefRow).metrics) ?? null);
    });
  });

  it("refuses an unknown metric, listing the valid ones", async () => {
    const result = await report([...OCT, "--metrics", "clicks,ctrr"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'adreport: --metrics: unknown name "ctrr"; use views, spending, clicks, conversions, ctr, cpc, cpm, cvr, cpa\n',
    );
  });
});

describe.concurrent("--fields", () => {
  it("picks and orders the CSV columns, metrics and dimension keys mixed", async () => {
    const result = await report([
      ...OCT,
      "--dims",
      "ad",
      "--metrics",
      "clicks,ctr",
      "--fields",
      "ctr,name,ad_id",
      "-f",
      "csv",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const [header, firstLine] = result.stdout.split("\n");
    expect(header).toBe("ctr,name,ad_id");
    const first = reference({ ...OCTOBER, entity: "ad" })[0] as RefRow;
    const name = String(first.dimensions.name);
    const cell = /[",\n]/.test(name) ? `"${name.replaceAll('"', '""')}"` : name;
    expect(firstLine).toBe(`${EXPECTED.ctr?.(first.metrics)},${cell},${first.dimensions.ad_id}`);
  });

  it("keeps only the chosen keys, in order, in NDJSON rows", async () => {
    const result = await report([
      ...OCT,
      "--dims",
      "campaign,date",
      "--fields",
      "date,clicks,campaign_id",
      "-f",
      "ndjson",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const [row] = ndjson(result.stdout);
    expect(Object.keys(row?.dimensions ?? {})).toEqual(["date", "campaign_id"]);
    expect(Object.keys(row?.metrics ?? {})).toEqual(["clicks"]);
  });

  it("refuses an unknown column, listing the valid ones, before any request", async () => {
    const result = await report([...OCT, "--dims", "campaign", "--metrics", "clicks,ctr", "--fields", "name,date"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'adreport: --fields: "date" is not a column of this report; use campaign_id, name, clicks, ctr\n',
    );
  });
});

describe.concurrent("--sort and --top", () => {
  it("keeps the N first after sorting, ties in the service's order", async () => {
    const result = await report([...OCT, "--dims", "ad", "--sort", "clicks", "--top", "3", "-f", "ndjson"]);
    expect(result.code, result.stderr).toBe(0);
    const ref = reference({ ...OCTOBER, entity: "ad" });
    const sorted = [...ref].sort((a, b) => (b.metrics.clicks ?? 0) - (a.metrics.clicks ?? 0));
    expect(ndjson(result.stdout)).toEqual(sorted.slice(0, 3));
  });

  it("sorts ascending by a ratio, rows without a value last", async () => {
    const result = await report([
      ...OCT,
      "--dims",
      "campaign,date",
      "--metrics",
      "cpa",
      "--sort",
      "cpa:asc",
      "-f",
      "json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const { data, meta } = JSON.parse(result.stdout) as { data: RefRow[]; meta: { total: number } };
    const values = data.map((row) => row.metrics.cpa as number | null);
    const numbers = values.filter((v): v is number => v !== null);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(values.slice(numbers.length).every((v) => v === null)).toBe(true);
    expect(values.length).toBeGreaterThan(numbers.length);
    expect(meta.total).toBe(data.length);
  });

  it("--top alone sorts by the first metric; the table's totals cover every row", async () => {
    const result = await report([...OCT, "--dims", "ad", "--metrics", "views,ctr", "--top", "2", "-f", "table"]);
    expect(result.code, result.stderr).toBe(0);
    const ref = reference({ ...OCTOBER, entity: "ad" });
    const byViews = [...ref].sort((a, b) => (b.metrics.views ?? 0) - (a.metrics.views ?? 0));
    const body = result.stdout.split("\n").filter((line) => line.startsWith("│"));
    expect(body).toHaveLength(4); // header, 2 rows, totals
    expect(body[1]).toContain((byViews[0]?.metrics.views ?? 0).toLocaleString("en-US"));
    const total = sum(ref);
    expect(body[3]).toContain(`total (${ref.length} rows)`);
    expect(body[3]).toContain((total.views ?? 0).toLocaleString("en-US"));
  });

  it("refuses a sort key that is not an output metric, and a bad --top", async () => {
    const sort = await report([...OCT, "--dims", "ad", "--metrics", "views", "--sort", "clicks"]);
    expect(sort.code).toBe(2);
    expect(sort.stderr).toContain('adreport: --sort: "clicks" is not a metric of this report; use views');
    const direction = await report([...OCT, "--sort", "views:up"]);
    expect(direction.code).toBe(2);
    for (const bad of ["0", "-1", "x", "1.5", ""]) {
      const top = await report([...OCT, "--top", bad]);
      expect(top.code, bad).toBe(2);
      expect(top.stderr).toContain("--top:");
    }
  });
});

describe.concurrent("--fill", () => {
  const SEPT = Date.UTC(2026, 8, 10) / 1000;
  const DAY = 86_400;

  it("gives every campaign a row for every day of the range, zeros at both edges", async () => {
    // The data starts on 2026-09-22 and ends on 2026-10-31: the range runs past both ends.
    const result = await report([
      "--from",
      "2026-09-10",
      "--to",
      "2026-11-02",
      "--dims",
      "campaign,date",
      "--metrics",
      "clicks,ctr",
      "--fill",
      "-f",
      "ndjson",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const rows = ndjson(result.stdout);
    const ref = reference({
      fromMs: SEPT * 1000,
      toMs: Date.UTC(2026, 10, 2, 23, 59, 59),
      entity: "campaign",
      byDate: true,
    });
    const campaigns = [...new Set(ref.map((r) => r.dimensions.campaign_id))];
    const days = 54;
    expect(rows).toHaveLength(campaigns.length * days);
    campaigns.forEach((id, c) => {
      const mine = rows.slice(c * days, (c + 1) * days);
      expect(mine.map((r) => r.dimensions.date)).toEqual(Array.from({ length: days }, (_, d) => SEPT + d * DAY));
      for (const row of mine) {
        expect(row.dimensions.campaign_id).toBe(id);
        const found = ref.find((r) => r.dimensions.campaign_id === id && r.dimensions.date === row.dimensions.date);
        expect(row.metrics.clicks).toBe(found?.metrics.clicks ?? 0);
        if (found === undefined) expect(row.metrics.ctr).toBeNull();
        if (found === undefined)
          expect(row.dimensions.name).toBe(ref.find((r) => r.dimensions.campaign_id === id)?.dimensions.name);
      }
    });
  });

  it("fills weeks from the Monday before the range, and a date-only report", async () => {
    // 2026-09-10 is a Thursday: its week starts on Monday 2026-09-07; 2026-11-02 is a Monday.
    const result = await report([
      "--from",
      "2026-09-10",
      "--to",
      "2026-11-02",
      "--dims",
      "date",
      "--granularity",
      "week",
      "--fill",
      "-f",
      "json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const { data, meta } = JSON.parse(result.stdout) as { data: RefRow[]; meta: { total: number } };
    const monday = Date.UTC(2026, 8, 7) / 1000;
    expect(data.map((r) => r.dimensions.date)).toEqual(Array.from({ length: 9 }, (_, w) => monday + w * 7 * DAY));
    expect(meta.total).toBe(9);
    expect(data[0]?.metrics).toEqual({ views: 0, spending: 0, clicks: 0, conversions: 0 });
  });

  it("fills months, and writes ISO dates in CSV", async () => {
    const result = await report([
      "--from",
      "2026-07-15",
      "--to",
      "2026-11-01",
      "--dims",
      "date",
      "--granularity",
      "month",
      "--fill",
      "--metrics",
      "views",
      "-f",
      "csv",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(
      result.stdout
        .trim()
        .split("\n")
        .map((l) => l.split(",")[0]),
    ).toEqual(["date", "2026-07-01", "2026-08-01", "2026-09-01", "2026-10-01", "2026-11-01"]);
  });

  it("needs date in --dims", async () => {
    const result = await report([...OCT, "--dims", "campaign", "--fill"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--fill needs date in --dims");
  });
});

describe.concurrent("--date-format", () => {
  it("writes ISO dates in JSON and epoch seconds in CSV and the table when asked", async () => {
    const json = await report([...OCT, "--dims", "date", "--metrics", "views", "--date-format", "iso", "-f", "ndjson"]);
    expect(ndjson(json.stdout)[0]?.dimensions.date).toBe("2026-10-01");
    const hourly = await report([
      "--from",
      "2026-10-01",
      "--to",
      "2026-10-01",
      "--dims",
      "date",
      "--granularity",
      "hour",
      "--metrics",
      "views",
      "--date-format",
      "iso",
      "-f",
      "ndjson",
    ]);
    expect(ndjson(hourly.stdout)[0]?.dimensions.date).toMatch(/^2026-10-01T\d\d:00:00Z$/);
    const csv = await report([...OCT, "--dims", "date", "--metrics", "views", "--date-format", "epoch", "-f", "csv"]);
    expect(csv.stdout.split("\n")[1]).toMatch(new RegExp(`^${Date.UTC(2026, 9, 1) / 1000},`));
    const table = await report([
      ...OCT,
      "--dims",
      "date",
      "--metrics",
      "views",
      "--date-format",
      "epoch",
      "-f",
      "table",
    ]);
    expect(table.stdout).toContain(`${Date.UTC(2026, 9, 1) / 1000}`);
    const plain = await report([
      ...OCT,
      "--dims",
      "date",
      "--metrics",
      "views",
      "--date-format",
      "epoch",
      "-f",
      "ndjson",
    ]);
    expect(ndjson(plain.stdout)[0]?.dimensions.date).toBe(Date.UTC(2026, 9, 1) / 1000);
  });

  it("refuses another form", async () => {
    const result = await report([...OCT, "--date-format", "rfc"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--date-format");
  });
});
