/** The format a report is written in, --spreadsheet, and the warnings for flags that cannot apply. */
import { describe, expect, it } from "vitest";
import type { ReportFlags } from "../../../../src/commands/report/flags";
import type { ReportRequest, RowPage } from "../../../../src/contract";
import type { ReportStream } from "../../../../src/contract/report-stream";
import { UsageError } from "../../../../src/core/errors";
import {
  chooseOutputFormat,
  dayFileFormatsInWords,
  isPicture,
  readBackFormat,
} from "../../../../src/engine/plan/output-format";
import { requestWarnings, watchAdInCampaign } from "../../../../src/engine/plan/warnings";

const FLAGS: ReportFlags = { from: "-7d", to: "today", split: true };

function settings(format?: "csv" | "json", spreadsheet = false) {
  return {
    format: { value: format, source: format ? ("config file" as const) : ("default" as const) },
    spreadsheet: { value: spreadsheet, source: spreadsheet ? ("config file" as const) : ("default" as const) },
  };
}

type Configured = Parameters<typeof chooseOutputFormat>[1];

function choose(flags: Partial<ReportFlags>, path?: string, configured: Configured = settings()) {
  return chooseOutputFormat({ ...FLAGS, ...flags }, configured, path, false);
}

describe("chooseOutputFormat", () => {
  it("picks tsv by name and by a .tsv ending", () => {
    expect(choose({ format: "tsv" }).entry.name).toBe("tsv");
    expect(choose({}, "out.tsv").entry.name).toBe("tsv");
  });

  it("--spreadsheet means CSV, over a configured format and on a terminal", () => {
    expect(choose({ spreadsheet: true }, undefined, settings("json", true))).toMatchObject({
      entry: { name: "csv" },
      spreadsheet: true,
    });
    expect(
      chooseOutputFormat({ ...FLAGS, spreadsheet: true }, settings(undefined, true), undefined, true),
    ).toMatchObject({ entry: { name: "csv" }, spreadsheet: true });
  });

  it("refuses --spreadsheet with another format named, by flag or by file ending", () => {
    for (const [flags, path] of [
      [{ format: "json", spreadsheet: true }, undefined],
      [{ format: "tsv", spreadsheet: true }, undefined],
      [{ spreadsheet: true }, "out.ndjson"],
    ] as const) {
      expect(() => choose(flags, path, settings(undefined, true))).toThrow(UsageError);
    }
  });

  it("applies the spreadsheet setting to CSV files only, silently", () => {
    expect(choose({ format: "csv" }, "out.csv", settings(undefined, true)).spreadsheet).toBe(true);
    expect(choose({}, "out/{date}.csv", settings(undefined, true)).spreadsheet).toBe(true);
    expect(choose({ format: "json" }, undefined, settings(undefined, true))).toMatchObject({
      spreadsheet: false,
      warnings: [],
    });
    expect(choose({ format: "csv", spreadsheet: false }, undefined, settings(undefined, false)).spreadsheet).toBe(
      false,
    );
  });

  // issue 35: a setting for spreadsheet files must not change what a pipeline reads.
  it("leaves CSV on stdout plain under the setting; --spreadsheet shapes it there", () => {
    expect(choose({ format: "csv" }, undefined, settings(undefined, true))).toMatchObject({
      entry: { name: "csv" },
      spreadsheet: false,
    });
    expect(choose({}, undefined, settings(undefined, true)).spreadsheet).toBe(false);
    const fromProfile: Configured = { ...settings(), spreadsheet: { value: true, source: "profile" as const } };
    expect(choose({}, undefined, fromProfile).spreadsheet).toBe(false);
    expect(choose({}, "out.csv", fromProfile).spreadsheet).toBe(true);
    const flag: Configured = { ...settings(), spreadsheet: { value: true, source: "flag" as const } };
    expect(choose({ spreadsheet: true }, undefined, flag).spreadsheet).toBe(true);
  });

  it("warns when --bom or --delimiter is given for a format other than CSV", () => {
    expect(choose({ format: "json", bom: true }).warnings).toEqual([
      "--bom applies to CSV only; the json output has no byte-order mark",
    ]);
    expect(choose({ format: "tsv", delimiter: ";" }).warnings).toEqual([
      "--delimiter applies to CSV only; TSV fields are always split by tabs",
    ]);
    expect(choose({ format: "csv", bom: true, delimiter: ";" }).warnings).toEqual([]);
  });
});

const REQUEST: ReportRequest = { from: "a", to: "b", metrics: ["views"], dimensions: [] };

describe("requestWarnings", () => {
  it("warns of a granularity without date among the dimensions", () => {
    expect(requestWarnings({ ...FLAGS, granularity: "hour" }, { ...REQUEST, granularity: "hour" })).toEqual([
      "--granularity hour does nothing without date in --dims (the service ignores it)",
    ]);
    expect(
      requestWarnings({ ...FLAGS, granularity: "hour" }, { ...REQUEST, dimensions: ["date"], granularity: "hour" }),
    ).toEqual([]);
    expect(requestWarnings(FLAGS, REQUEST)).toEqual([]);
  });
});

describe("watchAdInCampaign", () => {
  async function watch(request: ReportRequest, pages: RowPage[]) {
    async function* all() {
      yield* pages;
    }
    const meta = { granularity: "total", dimensions: [...request.dimensions], metrics: ["views"], total: 0 };
    const report = { meta, totalKnown: true, pages: all() } as unknown as ReportStream; // meta's paging fields unused here
    const watched = watchAdInCampaign(report, request);
    for await (const _page of watched.report.pages);
    return watched.warning();
  }
  const both = { ...REQUEST, adId: 12, campaignId: 3 };
  const zeros = { dimensions: {}, metrics: { views: 0 } };

  it("warns after an empty report for an ad and a campaign both named", async () => {
    expect(await watch({ ...both, dimensions: ["ad"] }, [{ rows: [] }])).toContain("--ad 12 with --campaign 3");
    expect(await watch(both, [{ rows: [zeros] }])).toContain("the report is empty when the ad is not in that campaign");
  });

  it("says nothing when rows came, or when only one of them was named", async () => {
    expect(await watch({ ...both, dimensions: ["ad"] }, [{ rows: [zeros] }])).toBeUndefined();
    expect(await watch(both, [{ rows: [{ dimensions: {}, metrics: { views: 3 } }] }])).toBeUndefined();
    expect(await watch({ ...REQUEST, adId: 12 }, [{ rows: [] }])).toBeUndefined();
  });
});

describe("whole days, as the format entries decide", () => {
  it("refuse the pictures, keep the format of the day files verify reads back, and name those in the hint", () => {
    expect(["html", "chart"].map(isPicture)).toEqual([true, true]);
    expect(["table", "csv", "tsv", "json", "ndjson", undefined].map(isPicture)).not.toContain(true);
    expect(readBackFormat(choose({}, "d/{date}.jsonl").entry)).toBe("ndjson");
    expect(readBackFormat(choose({ format: "table" }, "d/{date}.csv").entry)).toBeUndefined();
    expect(dayFileFormatsInWords()).toBe("CSV, TSV, JSON, NDJSON or Parquet");
  });
});
