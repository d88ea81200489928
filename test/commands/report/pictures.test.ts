/**
 * `--format html` and `--format chart` (the CLI in this process, a real `serve`): what the page carries
 * (the top 10 by the first metric, the rest summed as "other", checked against sums made here from the
 * loaded lines), that names stay data, and the terminal chart's series, labels and colour.
 * The page in a real browser: test/e2e/html-browser.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { CAMPAIGNS, campaignName, DAYS, ESC, startPictureService } from "../../helpers/picture-service";
import { type InProcessOptions, runInProcess } from "../../helpers/run-cli-in-process";
import { tempDir } from "../../helpers/temp";

const service = await startPictureService();
const RANGE = ["--from", DAYS[0] as string, "--to", DAYS.at(-1) as string];
const NOW = new Date("2026-11-02T08:30:00Z");

function report(args: string[], options: InProcessOptions = {}) {
  const dir = options.cwd ?? tempDir();
  return runInProcess(["report", ...RANGE, ...args], {
    now: NOW,
    cwd: dir,
    ...options,
    env: {
      ADREPORT_CONFIG_DIR: join(dir, "config"),
      ADREPORT_API_KEY: service.key,
      ADREPORT_BASE_URL: service.url,
      TERM: "xterm-256color",
      ...options.env,
    },
  });
}

interface PageSeries {
  label: string;
  other: boolean;
  values: Record<string, Array<number | null>>;
}
interface PagePicture {
  metrics: string[];
  dates?: string[];
  series: PageSeries[];
  entities: number;
}

/** The JSON a page carries in its `<script type="application/json" id=...>`. */
function pageData<T>(html: string, id: string): T {
  const start = html.indexOf(`<script type="application/json" id="${id}">`);
  expect(start, id).toBeGreaterThan(-1);
  const from = html.indexOf(">", start) + 1;
  return JSON.parse(html.slice(from, html.indexOf("</script>", from))) as T;
}

/** Sums over the loaded lines of the campaigns given, per day. */
function sumPerDay(campaigns: number[], metric: "clicks" | "views"): number[] {
  return DAYS.map((day) =>
    service.lines
      .filter((line) => campaigns.includes(line.campaign_id) && line.hour.startsWith(day))
      .reduce((sum, line) => sum + line[metric], 0),
  );
}

describe("--format html", () => {
  it("draws the top 10 by the first metric per day and sums the rest as other", async () => {
    const dir = tempDir();
    const result = await report(["--dims", "campaign,date", "--metrics", "clicks,views", "-o", "page.html"], {
      cwd: dir,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("");
    const html = readFileSync(join(dir, "page.html"), "utf8");
    const picture = pageData<PagePicture>(html, "adreport-picture");
    expect(picture.metrics).toEqual(["clicks", "views"]);
    expect(picture.dates).toEqual(DAYS);
    expect(picture.entities).toBe(CAMPAIGNS);
    expect(picture.series).toHaveLength(11);
    // Campaign 1 has the most clicks, campaign 10 the tenth most (helpers/picture-service.ts).
    for (let c = 1; c <= 10; c += 1) {
      const series = picture.series[c - 1] as PageSeries;
      expect(series.other).toBe(false);
      expect(series.label.startsWith(campaignName(c).slice(0, 40)), series.label).toBe(true);
      expect(series.values.clicks).toEqual(sumPerDay([c], "clicks"));
    }
    const other = picture.series[10] as PageSeries;
    expect(other).toMatchObject({ label: "other (3)", other: true });
    expect(other.values.clicks).toEqual(sumPerDay([11, 12, 13], "clicks"));
    expect(other.values.views).toEqual(sumPerDay([11, 12, 13], "views"));
    const rows = pageData<unknown[][]>(html, "adreport-rows");
    expect(rows).toHaveLength(CAMPAIGNS * DAYS.length);
    expect(html).toContain(`<time datetime="${NOW.toISOString()}">`);
    expect(html).toContain("<h1>adreport report: campaign, date from 2026-10-01 to 2026-10-04");
  });

  it("a bar per entity when there is no date", async () => {
    const dir = tempDir();
    const result = await report(["--dims", "campaign", "--metrics", "views", "-o", "bars.htm"], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const picture = pageData<PagePicture>(readFileSync(join(dir, "bars.htm"), "utf8"), "adreport-picture");
    expect(picture.dates).toBeUndefined();
    expect(picture.series).toHaveLength(11);
    // Ranked by views: campaign 13 has the most.
    expect(picture.series[0]?.values.views).toEqual([sumPerDay([13], "views").reduce((a, b) => a + b)]);
    expect(picture.series[10]?.values.views).toEqual([sumPerDay([1, 2, 3], "views").reduce((a, b) => a + b)]);
  });

  it("--compare: one chart per metric holding both periods, the change only in the table", async () => {
    // 2026-10-03..04 against 2026-10-01..02: the same campaigns, the 1st day with the 1st day.
    const later = ["--from", DAYS[2] as string, "--to", DAYS[3] as string];
    for (const [dims, dated] of [
      ["campaign,date", true],
      ["campaign", false],
    ] as const) {
      const result = await report([
        ...later,
        "--dims",
        dims,
        "--metrics",
        "clicks,views",
        "--compare",
        "previous",
        "-f",
        "html",
      ]);
      expect(result.code, result.stderr).toBe(0);
      const picture = pageData<PagePicture & { previous: string }>(result.stdout, "adreport-picture");
      expect(picture.metrics).toEqual(["clicks", "views"]);
      expect(picture.previous).toBe("period before");
      const first = picture.series[0] as PageSeries;
      const now = sumPerDay([1], "clicks").slice(2);
      const before = sumPerDay([1], "clicks").slice(0, 2);
      const sum = (values: number[]) => [values.reduce((a, b) => a + b)];
      expect(first.values.clicks).toEqual(dated ? now : sum(now));
      expect(first.values.clicks_prev).toEqual(dated ? before : sum(before));
      expect(Object.keys(first.values).sort()).toEqual(["clicks", "clicks_prev", "views", "views_prev"]);
      const columns = pageData<Array<{ name: string }>>(result.stdout, "adreport-columns").map((c) => c.name);
      expect(columns).toContain("clicks_change");
    }
  });

  it("names stay data: no markup from the service, nothing that ends a script early", async () => {
    const result = await report(["--dims", "campaign,date", "--format", "html"]);
    expect(result.code, result.stderr).toBe(0);
    const html = result.stdout;
    expect(html).not.toContain("<img");
    expect(html).not.toContain("window.__pwned = 1</script>");
    expect(html.match(/<script/g)?.length).toBe(html.match(/<\/script>/g)?.length);
    expect(html).toContain("\\u003c/script>\\u003cscript>window.__pwned = 1\\u003c/script>");
    const rows = pageData<unknown[][]>(html, "adreport-rows");
    expect(rows.map((row) => row[1])).toContain(campaignName(1));
    expect(rows.map((row) => row[1])).toContain(campaignName(3));
  });

  it("is one file: Chart.js inline, nothing to fetch", async () => {
    const result = await report(["--dims", "date", "--format", "html"]);
    expect(result.code, result.stderr).toBe(0);
    const html = result.stdout;
    expect(html.includes("Chart.js v4")).toBe(true);
    // What would make a browser fetch: a script or style from elsewhere, a source map, a CSS import.
    expect(html.match(/<script[^>]+src=|<link|sourceMappingURL|@import/i)?.[0]).toBeUndefined();
    expect(html.includes("default-src 'none'")).toBe(true);
  });

  it("an empty report is a page that says so", async () => {
    const result = await runInProcess(
      ["report", "--from", "2026-01-01", "--to", "2026-01-02", "--dims", "campaign,date", "-f", "html"],
      { env: { ADREPORT_API_KEY: service.key, ADREPORT_BASE_URL: service.url } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(pageData<PagePicture>(result.stdout, "adreport-picture").series).toEqual([]);
    expect(pageData<unknown[]>(result.stdout, "adreport-rows")).toEqual([]);
  });
});

describe("--format chart", () => {
  it("needs a date dimension: exit 2 before anything is fetched", async () => {
    const result = await report(["--dims", "campaign", "--format", "chart"], {
      env: { ADREPORT_BASE_URL: "http://127.0.0.1:9" },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "adreport: --format chart draws a metric over dates; this report has no date dimension\n" +
        "hint: add date to --dims (--dims campaign,date), or use --format html for a bar chart\n",
    );
  });

  it("in colour: one chart, the top 6 entities, a legend", async () => {
    const result = await report(["--dims", "campaign,date", "--metrics", "clicks", "--format", "chart"], {
      outIsTTY: true,
      columns: 100,
    });
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    expect(out.split("\n")[0]).toBe("clicks by date: the top 6 of 13 by clicks");
    expect(out).toContain(`${ESC}[34m`);
    expect(out).toContain("\\x1b[31mRED\\x1b[0m\\x1b]0;pwned-title\\x07 (3)");
    expect(out).not.toContain(`${ESC}]0;`);
    expect(out).not.toContain("Campaign 7");
    for (const day of DAYS) expect(out).toContain(day);
    const widths = stripVTControlCharacters(out)
      .split("\n")
      .map((line) => line.length);
    expect(Math.max(...widths)).toBeLessThanOrEqual(100);
  });

  /** The plot rows of each chart in a text: the lines between its ▲ and its x axis (or its end). */
  function plotRows(text: string): string[][] {
    const charts: string[][] = [];
    for (const line of stripVTControlCharacters(text).split("\n")) {
      if (line.trim() === "▲") charts.push([]);
      else if (/^\s*[^\s]*[┤│]/.test(line) && charts.length > 0 && !line.includes("└")) charts.at(-1)?.push(line);
      else if (charts.at(-1)?.length) charts.push([]);
    }
    return charts.filter((rows) => rows.length > 0);
  }
  const LINE = /[━┃┏┓┗┛]/;

  it("every chart spans its whole height: its top and bottom rows hold the line, labels at even steps", async () => {
    const one = await report(["--dims", "date", "--metrics", "clicks", "--format", "chart"], { columns: 100 });
    expect(one.code, one.stderr).toBe(0);
    const [rows] = plotRows(one.stdout) as [string[]];
    expect(rows).toHaveLength(13);
    expect(rows[0]).toMatch(LINE);
    expect(rows[12]).toMatch(LINE);
    expect(rows.filter((row) => row.includes("┤"))).toHaveLength(5);
    const small = await report(["--dims", "campaign,date", "--metrics", "clicks", "--format", "chart"], {
      env: { NO_COLOR: "1" },
    });
    expect(small.stdout.split("\n")[0]).toBe("clicks by date: the top 6 of 13 by clicks (each on its own scale)");
    const charts = plotRows(small.stdout);
    expect(charts).toHaveLength(6);
    for (const chart of charts) {
      expect(chart).toHaveLength(5);
      expect(chart[0]).toMatch(LINE);
      expect(chart[4]).toMatch(LINE);
    }
    const coloured = await report(["--dims", "campaign,date", "--metrics", "clicks", "--format", "chart"], {
      outIsTTY: true,
    });
    expect(plotRows(coloured.stdout)[0]).toHaveLength(13);
  });

  it("without colour: a small chart per entity, titled, each on its own scale", async () => {
    const result = await report(["--dims", "campaign,date", "--metrics", "clicks", "--format", "chart"], {
      outIsTTY: true,
      env: { NO_COLOR: "1" },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(ESC);
    const titles = result.stdout.split("\n").filter((line) => /^(Campaign|<|=|&|huge|\\x1b)/.test(line));
    expect(titles).toHaveLength(6);
    expect(titles[0]).toBe(`${campaignName(1)} (1)`);
  });

  it("into a file: allowed, without colour", async () => {
    const dir = tempDir();
    const result = await report(["--dims", "date", "--metrics", "views", "--format", "chart", "-o", "chart.txt"], {
      cwd: dir,
      outIsTTY: true,
    });
    expect(result.code, result.stderr).toBe(0);
    const text = readFileSync(join(dir, "chart.txt"), "utf8");
    expect(text.split("\n")[0]).toBe("views by date");
    expect(text).not.toContain(ESC);
  });
});
