/**
 * The flags of the analyst's view together, where the parts built apart meet: --fields and --top with the
 * picture formats. Each case is checked against the same report without the flag that should not change it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DAYS, startPictureService } from "../../helpers/picture-service";
import { type InProcessOptions, runInProcess } from "../../helpers/run-cli-in-process";
import { tempDir } from "../../helpers/temp";

const pictures = await startPictureService();
const PICTURE_RANGE = ["--from", DAYS[0] as string, "--to", DAYS.at(-1) as string];
const NOW = new Date("2026-11-02T08:30:00Z");

function pictureReport(args: string[], options: InProcessOptions = {}) {
  const dir = options.cwd ?? tempDir();
  return runInProcess(["report", ...PICTURE_RANGE, ...args], {
    now: NOW,
    cwd: dir,
    ...options,
    env: {
      ADREPORT_CONFIG_DIR: join(dir, "config"),
      ADREPORT_API_KEY: pictures.key,
      ADREPORT_BASE_URL: pictures.url,
      NO_COLOR: "1",
      ...options.env,
    },
  });
}

function pageData<T>(html: string, id: string): T {
  const start = html.indexOf(`<script type="application/json" id="${id}">`);
  expect(start, id).toBeGreaterThan(-1);
  const from = html.indexOf(">", start) + 1;
  return JSON.parse(html.slice(from, html.indexOf("</script>", from))) as T;
}

async function page(args: string[]): Promise<string> {
  const dir = tempDir();
  const result = await pictureReport([...args, "-o", "page.html"], { cwd: dir });
  expect(result.code, result.stderr).toBe(0);
  return readFileSync(join(dir, "page.html"), "utf8");
}

describe("--fields with the picture formats", () => {
  it("html: the table has the chosen columns in order; the charts and totals are those of the report", async () => {
    const dims = ["--dims", "campaign,date", "--metrics", "clicks,ctr"];
    const plain = await page([...dims, "--metrics", "ctr"]);
    const chosen = await page([...dims, "--fields", "name,date,ctr"]);
    const columns = pageData<Array<{ name: string }>>(chosen, "adreport-columns").map((c) => c.name);
    expect(columns).toEqual(["name", "date", "ctr"]);
    const rows = pageData<unknown[][]>(chosen, "adreport-rows");
    expect(rows[0]).toHaveLength(3);
    const picture = pageData<{ total: unknown[]; series: unknown[] }>(chosen, "adreport-picture");
    const plainPicture = pageData<{ total: unknown[]; series: unknown[] }>(plain, "adreport-picture");
    // The same entities drawn (the top 10 by ctr, "other" summed from counters), and a total ctr.
    expect(picture.series).toEqual(plainPicture.series);
    expect(picture.total.at(-1)).toEqual(plainPicture.total.at(-1));
    expect(picture.total.at(-1)).not.toBeNull();
  });

  it("chart: entities stay apart (by id) and are ranked by the metric when --fields leaves out the id", async () => {
    const dims = ["--dims", "campaign,date", "-f", "chart"];
    const plain = await pictureReport([...dims, "--metrics", "ctr"]);
    const chosen = await pictureReport([...dims, "--metrics", "clicks,ctr", "--fields", "name,date,ctr"]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(chosen.stdout).toBe(plain.stdout);
  });
});

describe("--top with the html page", () => {
  it("the page's totals cover every row of the report, as the table's do", async () => {
    const dims = ["--dims", "campaign", "--metrics", "clicks,ctr"];
    const all = pageData<{ total: unknown[] }>(await page(dims), "adreport-picture");
    const top = pageData<{ total: unknown[] }>(await page([...dims, "--top", "2"]), "adreport-picture");
    expect(top.total).toEqual(all.total);
  });
});

describe("the table's totals row with --fields", () => {
  it("is there when --fields puts a metric first: its label goes in the first dimension column", async () => {
    const result = await pictureReport(
      ["--dims", "campaign", "--metrics", "clicks,views,ctr", "--fields", "ctr,name", "--top", "3", "-f", "table"],
      { env: { COLUMNS: "200" } },
    );
    expect(result.code, result.stderr).toBe(0);
    const clicks = pictures.lines.reduce((sum, line) => sum + line.clicks, 0);
    const views = pictures.lines.reduce((sum, line) => sum + line.views, 0);
    const footer = result.stdout.split("\n").find((line) => line.includes("total ("));
    expect(footer, result.stdout).toBeDefined();
    const cells = (footer as string).split("│").map((cell) => cell.trim());
    expect(cells.slice(1, 3)).toEqual([`${((clicks / views) * 100).toFixed(2)}%`, "total (13 rows)"]);
  });
});

describe("the html page's header with --tz, ratios and --compare", () => {
  it("names the zone's range, the buckets and the metrics asked for, not the hourly counters fetched", async () => {
    const html = await page([
      "--dims",
      "campaign,date",
      "--metrics",
      "ctr",
      "--tz",
      "Europe/Berlin",
      "--compare",
      "previous",
    ]);
    const header = html.slice(html.indexOf("<h1>"), html.indexOf("</h1>"));
    expect(header).toContain("from 2026-10-01T00:00:00+02:00 to 2026-10-04T23:59:59+02:00 (Europe/Berlin)");
    expect(header).toContain("(day): ctr");
    expect(header).toContain("compared with the previous period");
    expect(header).not.toContain("hour");
    expect(header).not.toContain("clicks");
  });
});

describe("--sort read as --metrics and --fields are", () => {
  it("takes spaces around the metric and the direction, as the lists do around names", async () => {
    const spaced = await pictureReport([
      "--dims",
      "campaign",
      "--metrics",
      " clicks , ctr",
      "--sort",
      " ctr : asc ",
      "-f",
      "csv",
    ]);
    const plain = await pictureReport([
      "--dims",
      "campaign",
      "--metrics",
      "clicks,ctr",
      "--sort",
      "ctr:asc",
      "-f",
      "csv",
    ]);
    expect(spaced.code, spaced.stderr).toBe(0);
    expect(spaced.stdout).toBe(plain.stdout);
  });
});
