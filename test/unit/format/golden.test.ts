/**
 * Each format's exact bytes for the fixtures in fixtures/api, against the golden files in fixtures/golden.
 * Set UPDATE_GOLDEN=1 to rewrite them after a deliberate change (and read the diff).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseReportBody } from "../../../src/api/body/report-body";
import type { ReportPage } from "../../../src/contract";
import type { FormatOptions } from "../../../src/format/formatter";
import { formatNamed } from "../../../src/format/registry";

const FIXTURES = join(import.meta.dirname, "..", "..", "..", "fixtures");

async function render(
  fixture: string,
  format: string,
  options: Partial<FormatOptions> = {},
  totalKnown = true,
  source: "parsed" | "compact body" | "file body" = "parsed",
): Promise<Buffer> {
  const bytes = readFileSync(join(FIXTURES, "api", `${fixture}.json`));
  const page = JSON.parse(bytes.toString("utf8")) as ReportPage;
  const entry = formatNamed(format);
  if (!entry) throw new Error(format);
  const formatter = await entry.load();
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk));
  async function* pages() {
    if (source === "parsed") {
      yield { rows: page.data.slice(0, 1) };
      yield { rows: page.data.slice(1) };
    } else {
      // As from the service: the page's rows with the body they were parsed from.
      const body = source === "file body" ? bytes : Buffer.from(JSON.stringify(page));
      yield { rows: page.data, sent: parseReportBody(body).sent(page.data.length) };
    }
  }
  await formatter.write({ meta: page.meta, totalKnown, pages: pages() }, out, {
    delimiter: ",",
    bom: false,
    spreadsheet: false,
    color: false,
    ...options,
  });
  return Buffer.concat(chunks);
}

function golden(name: string, actual: Buffer): void {
  const path = join(FIXTURES, "golden", name);
  if (process.env.UPDATE_GOLDEN) writeFileSync(path, actual);
  expect(actual.toString("utf8")).toBe(readFileSync(path, "utf8"));
  expect(actual.equals(readFileSync(path))).toBe(true);
}

describe("golden output", () => {
  it.each([
    ["campaign-date", "csv", "campaign-date.csv"],
    ["campaign-date", "json", "campaign-date.json"],
    ["campaign-date", "ndjson", "campaign-date.ndjson"],
    ["campaign-date", "table", "campaign-date.txt"],
    ["ad-hourly", "csv", "ad-hourly.csv"],
    ["ad-hourly", "ndjson", "ad-hourly.ndjson"],
    ["ad-hourly", "table", "ad-hourly.txt"],
    ["campaign-date", "tsv", "campaign-date.tsv"],
    ["ad-hourly", "tsv", "ad-hourly.tsv"],
    ["hostile-names", "csv", "hostile-names.csv"],
    ["hostile-names", "tsv", "hostile-names.tsv"],
    ["hostile-names", "table", "hostile-names.txt"],
  ])("%s as %s", async (fixture, format, file) => {
    golden(file, await render(fixture, format));
  });

  it.each([
    ["campaign-date", "json", "campaign-date.json"],
    ["campaign-date", "ndjson", "campaign-date.ndjson"],
    ["ad-hourly", "ndjson", "ad-hourly.ndjson"],
  ])("%s as %s, rows copied from the body they came in", async (fixture, format, file) => {
    golden(file, await render(fixture, format, {}, true, "compact body"));
    // Spaced as the fixture file is: each row keeps the service's spelling, the values are the same.
    const spaced = (await render(fixture, format, {}, true, "file body")).toString();
    const expected = readFileSync(join(FIXTURES, "golden", file), "utf8");
    const fixtureText = readFileSync(join(FIXTURES, "api", `${fixture}.json`), "utf8");
    if (format === "ndjson") {
      const lines = spaced.trimEnd().split("\n");
      for (const line of lines) expect(fixtureText).toContain(line);
      expect(lines.map((line) => JSON.parse(line))).toEqual(
        expected
          .trimEnd()
          .split("\n")
          .map((line) => JSON.parse(line)),
      );
    } else {
      expect(JSON.parse(spaced)).toEqual(JSON.parse(expected));
    }
  });

  it("CSV with another delimiter and a byte-order mark", async () => {
    golden("campaign-date.semicolon-bom.csv", await render("campaign-date", "csv", { delimiter: ";", bom: true }));
  });

  it.each([
    ["campaign-date", "campaign-date.spreadsheet.csv"],
    ["hostile-names", "hostile-names.spreadsheet.csv"],
  ])("%s as CSV for spreadsheet programs", async (fixture, file) => {
    golden(file, await render(fixture, "csv", { spreadsheet: true }));
  });

  it("CSV for spreadsheet programs with another delimiter", async () => {
    golden(
      "hostile-names.spreadsheet-semicolon.csv",
      await render("hostile-names", "csv", { spreadsheet: true, delimiter: ";" }),
    );
  });

  it("JSON of a merged report, whose count is known only at the end", async () => {
    const buffered = await render("campaign-date", "json", {}, false);
    expect(buffered.toString()).toBe((await render("campaign-date", "json")).toString());
  });
});

describe("format rules", () => {
  it("CSV quotes commas, quotes and newlines as RFC 4180 says, and keeps non-ASCII", async () => {
    const csv = (await render("campaign-date", "csv")).toString();
    expect(csv).toContain('1,"Spring, 2026",2026-11-01,');
    expect(csv).toContain('2,"Summer ""Sale""\nsecond line",2026-11-01,');
    expect(csv).toContain("3,Été 🌞 日本語,2026-11-01,");
  });

  it("bolds the table's column titles only when told to, whatever the environment says", async () => {
    const plain = (await render("campaign-date", "table", { color: false })).toString();
    expect(plain).not.toContain("\u001b");
    const bold = (await render("campaign-date", "table", { color: true })).toString();
    expect(bold).toContain("\u001b[1mcampaign_id\u001b[22m");
    expect(bold.replaceAll("\u001b[1m", "").replaceAll("\u001b[22m", "")).toBe(plain);
  });

  it("writes dates of hourly buckets as date-times, others as dates", async () => {
    expect((await render("ad-hourly", "csv")).toString()).toContain("2026-11-01T13:00:00Z");
    expect((await render("campaign-date", "csv")).toString()).toContain("2026-11-02,");
  });

  it("keeps the API's row shape in NDJSON, unknown fields included", async () => {
    const lines = (await render("ad-hourly", "ndjson")).toString().trim().split("\n");
    expect(JSON.parse(lines[0] as string)).toMatchObject({ note: "kept", dimensions: { date: 1793538000 } });
  });

  it("writes only the header for a report without rows", async () => {
    const page = {
      meta: {
        granularity: "daily",
        dimensions: ["campaign", "date"],
        metrics: ["views"],
        total: 0,
        page: 1,
        limit: 1000,
        has_more: false,
      },
      data: [],
    };
    const entry = formatNamed("csv");
    const out = new PassThrough();
    let text = "";
    out.on("data", (c: Buffer) => {
      text += c.toString();
    });
    async function* none() {}
    await (await entry?.load())?.write({ meta: page.meta, totalKnown: true, pages: none() }, out, {
      delimiter: ",",
      bom: false,
      spreadsheet: false,
      color: false,
    });
    expect(text).toBe("campaign_id,name,date,views\n");
  });
});
