/**
 * Flags the service accepts but cannot act on as the user meant: said on stderr instead of guessed at.
 * Each function returns the text after `adreport: warning: `.
 */
import type { ReportRequest, ReportRow, RowPage } from "../../contract";
import type { ReportStream } from "../../contract/report-stream";

/** The service ignores a granularity without `date` among the dimensions (docs/service.md §2). */
export function requestWarnings(flags: { granularity?: string | undefined }, request: ReportRequest): string[] {
  if (flags.granularity === undefined || request.dimensions.includes("date")) return [];
  return [`--granularity ${request.granularity} does nothing without date in --dims (the service ignores it)`];
}

/**
 * Watches the rows going by, for a warning after the export: an ad and a campaign both named give no rows
 * (or, without dimensions, a total of zeros) when the ad is not in that campaign. Told apart from an ad
 * without data in the range only by another request, so the warning says both.
 */
export function watchAdInCampaign(
  report: ReportStream,
  request: ReportRequest,
): { report: ReportStream; warning(): string | undefined } {
  if (request.adId === undefined || request.campaignId === undefined) return { report, warning: () => undefined };
  // A grand total always has its one row; only its numbers tell.
  const counts =
    request.dimensions.length > 0
      ? () => true
      : (row: ReportRow) => Object.values(row.metrics).some((value) => value !== 0);
  let anything = false;
  const pages = report.pages;
  async function* watched(): AsyncGenerator<RowPage> {
    for await (const page of pages) {
      if (!anything) anything = page.rows.some(counts);
      yield page;
    }
  }
  return {
    report: { ...report, pages: watched() },
    warning: () =>
      anything
        ? undefined
        : `no data for --ad ${request.adId} with --campaign ${request.campaignId}: the report is empty when the ad is not in that campaign (or has no data in the range)`,
  };
}
