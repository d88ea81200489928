/**
 * The page of `--format html` in a real browser: Debian's chromium, headless, driven by playwright-core
 * (no browser download). The real CLI writes the page (so under `npm test` the single-file binary's
 * inlined Chart.js is checked too); the browser opens it from disk and must fetch nothing else, log no
 * error, draw a chart per metric with the right series, and sort the table when a column is clicked.
 * A screenshot of each page goes to .test-tmp/ (its path is printed). chromium comes from .ci/run
 * (apt-get install chromium, as root); where it is missing the cases skip and say why (or fail, where
 * ADREPORT_TEST_REQUIRE names chromium).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { CAMPAIGNS, campaignName, DAYS, startPictureService } from "../helpers/picture-service";
import { referenceRows } from "../helpers/reference";
import { chromiumMissing, chromiumPath, skipMissing } from "../helpers/required-tools";
import { SMALL_DEMO, startTestService } from "../helpers/serve";
import { runCli } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const NO_CHROMIUM = chromiumMissing();
const ROOT = join(import.meta.dirname, "..", "..");
const SCREENSHOTS = join(ROOT, ".test-tmp");

const service = await startPictureService();
const dir = tempDir();

let browser: BrowserContext | undefined;
afterAll(async () => {
  await browser?.close();
});

async function openBrowser(): Promise<BrowserContext> {
  browser ??= await chromium.launchPersistentContext(tempDir("adreport-chromium-"), {
    executablePath: chromiumPath(),
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return browser;
}

async function exportPage(
  file: string,
  args: string[],
  from: { url: string; key: string } = service,
  range = ["--from", DAYS[0] as string, "--to", DAYS.at(-1) as string],
): Promise<string> {
  const path = join(dir, file);
  const result = await runCli(["report", ...range, ...args, "-o", path], {
    env: { ADREPORT_CONFIG_DIR: join(dir, "config"), ADREPORT_API_KEY: from.key, ADREPORT_BASE_URL: from.url },
  });
  expect(result.code, result.stderr).toBe(0);
  return path;
}

interface Drawn {
  metric: string;
  kind: string;
  series: number;
  datasets: number;
  labels: string[];
  points: number;
  canvasWidth: number;
}

/** Opens the page, recording console errors and every request; resolves once its script has run. */
async function open(path: string) {
  const context = await openBrowser();
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("dialog", (dialog) => {
    errors.push(`a dialog opened: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on("request", (request) => requests.push(request.url()));
  const url = pathToFileURL(path).href;
  await page.goto(url);
  await page.waitForFunction("document.body.dataset.ready === 'true'", undefined, { timeout: 10_000 });
  const charts = (await page.evaluate(`[...document.querySelectorAll("figure.chart")].map((figure) => {
    const canvas = figure.querySelector("canvas");
    const chart = Chart.getChart(canvas);
    return { metric: figure.dataset.metric, kind: figure.dataset.kind, series: Number(figure.dataset.series),
      datasets: chart.data.datasets.length, labels: chart.data.datasets.map((d) => d.label),
      points: chart.data.labels.length, canvasWidth: canvas.width };
  })`)) as Drawn[];
  return { page, url, errors, requests, charts };
}

async function screenshot(page: Awaited<ReturnType<typeof open>>["page"], name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, name);
  await page.screenshot({ path, fullPage: true });
  console.log(`screenshot of the page: ${path}`);
}

describe("the HTML page in chromium", () => {
  it("draws a line per entity (top 10 + other), fetches nothing, sorts the table by a click", {
    tags: ["binary"],
    timeout: 60_000,
  }, async (context) => {
    if (NO_CHROMIUM) skipMissing(context, "chromium", NO_CHROMIUM);
    const path = await exportPage("lines.html", ["--dims", "campaign,date", "--metrics", "clicks,views"]);
    const { page, url, errors, requests, charts } = await open(path);
    await screenshot(page, "html-report-lines.png");
    expect(errors).toEqual([]);
    expect(requests).toEqual([url]);
    expect(charts.map((c) => [c.metric, c.kind, c.series, c.datasets, c.points])).toEqual([
      ["clicks", "line", 11, 11, DAYS.length],
      ["views", "line", 11, 11, DAYS.length],
    ]);
    expect(charts[0]?.labels[0]).toBe(`${campaignName(1)} (1)`);
    expect(charts[0]?.labels[10]).toBe("other (3)");
    expect(charts[0]?.canvasWidth).toBeGreaterThan(100);

    // Names are text: nothing they hold ran or became an element.
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    expect(await page.evaluate('document.querySelectorAll("img, body > script:not([type])").length')).toBe(2);
    const names = (await page.evaluate(
      '[...document.querySelectorAll("#adreport-table tbody tr")].map((tr) => tr.cells[1].textContent)',
    )) as string[];
    expect(names).toHaveLength(CAMPAIGNS * DAYS.length);
    expect(names).toContain(campaignName(1));
    expect(names).toContain(campaignName(2));

    const column = async (name: string) => {
      const index = (await page.evaluate(
        `[...document.querySelectorAll("#adreport-table thead th")].findIndex((th) => th.dataset.column === ${JSON.stringify(name)})`,
      )) as number;
      return (await page.evaluate(
        `[...document.querySelectorAll("#adreport-table tbody tr")].map((tr) => tr.cells[${index}].textContent)`,
      )) as string[];
    };
    const numbers = (texts: string[]) => texts.map((text) => Number(text.replaceAll(",", "")));
    const before = numbers(await column("clicks"));
    await page.click('th[data-column="clicks"] button');
    const descending = numbers(await column("clicks"));
    expect(descending).not.toEqual(before);
    expect(descending).toEqual([...before].sort((a, b) => b - a));
    expect(await page.getAttribute('th[data-column="clicks"]', "aria-sort")).toBe("descending");
    await page.click('th[data-column="clicks"] button');
    expect(numbers(await column("clicks"))).toEqual([...before].sort((a, b) => a - b));
    await page.click('th[data-column="date"] button');
    const dates = await column("date");
    expect(dates).toEqual([...dates].sort());
    expect(errors).toEqual([]);
    await page.close();
  });

  it("draws bars when there is no date", async (context) => {
    if (NO_CHROMIUM) skipMissing(context, "chromium", NO_CHROMIUM);
    const path = await exportPage("bars.htm", ["--dims", "campaign", "--metrics", "views,spending"]);
    const { page, url, errors, requests, charts } = await open(path);
    await screenshot(page, "html-report-bars.png");
    expect(errors).toEqual([]);
    expect(requests).toEqual([url]);
    expect(charts.map((c) => [c.metric, c.kind, c.series, c.datasets, c.points])).toEqual([
      ["views", "bar", 11, 1, 11],
      ["spending", "bar", 11, 1, 11],
    ]);
    await page.close();
  }, 60_000);

  it("--compare: a chart per metric with both periods (a dotted line per entity for the earlier one)", async (context) => {
    if (NO_CHROMIUM) skipMissing(context, "chromium", NO_CHROMIUM);
    const range = ["--from", DAYS[2] as string, "--to", DAYS[3] as string];
    const args = ["--dims", "campaign,date", "--metrics", "clicks,views", "--compare", "previous"];
    const { page, errors, charts } = await open(await exportPage("compare.html", args, service, range));
    await screenshot(page, "html-report-compare.png");
    expect(errors).toEqual([]);
    expect(charts.map((c) => [c.metric, c.kind, c.series, c.datasets, c.points])).toEqual([
      ["clicks", "line", 11, 22, 2],
      ["views", "line", 11, 22, 2],
    ]);
    expect(charts[0]?.labels.slice(0, 2)).toEqual([`${campaignName(1)} (1)`, `${campaignName(1)} (1) (period before)`]);
    const bars = await open(
      await exportPage(
        "compare-bars.html",
        ["--dims", "campaign", "--metrics", "views", "--compare", "year"],
        service,
        range,
      ),
    );
    expect(bars.errors).toEqual([]);
    expect(bars.charts.map((c) => [c.metric, c.kind, c.datasets, c.labels])).toEqual([
      ["views", "bar", 2, ["views", "views (a year earlier)"]],
    ]);
    await bars.page.close();
    await page.close();
  }, 60_000);

  it("a big table shows its first 2,000 rows, sorts all of them, and shows more on request", async (context) => {
    if (NO_CHROMIUM) skipMissing(context, "chromium", NO_CHROMIUM);
    const demo = await startTestService({
      keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }],
      demo: { ...SMALL_DEMO, adsPerCampaign: 4 },
    });
    const range = ["--from", "2026-09-22", "--to", "2026-10-31"];
    const path = await exportPage(
      "hourly.html",
      ["--dims", "ad,date", "--granularity", "hour", "--metrics", "clicks"],
      { url: demo.url, key: demo.keys[0] as string },
      range,
    );
    const expected = referenceRows(demo.lines, {
      advertiser: "Acme Outdoor",
      fromMs: Date.UTC(2026, 8, 22),
      toMs: Date.UTC(2026, 10, 1) - 1,
      metrics: ["clicks"],
      entity: "ad",
      byDate: true,
      granularity: "hour",
    });
    expect(expected.length).toBeGreaterThan(2500);
    const { page, errors, charts } = await open(path);
    expect(charts[0]?.series).toBe(8);
    const bodyRows = () => page.evaluate('document.querySelectorAll("#adreport-table tbody tr").length');
    expect(await bodyRows()).toBe(2000);
    await page.click('th[data-column="clicks"] button');
    const top = (await page.evaluate(
      '[...document.querySelectorAll("#adreport-table tbody tr")].slice(0, 3).map((tr) => Number(tr.cells[4].textContent))',
    )) as number[];
    const most = expected.map((row) => row.metrics.clicks as number).sort((a, b) => b - a);
    expect(top).toEqual(most.slice(0, 3));
    await page.click("#adreport-show-more");
    expect(await bodyRows()).toBe(Math.min(4000, expected.length));
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
