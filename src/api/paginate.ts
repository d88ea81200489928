/**
 * The only page loop. The first page tells the total and the page size the server applied; the rest are
 * fetched `concurrency` at a time and handed on, page by page, strictly in order, so memory holds at most
 * that many pages whatever the size of the report. The count of rows is checked against `meta.total`: a report
 * that changes underneath, or whose `has_more` and count disagree, ends in DataChangedError.
 *
 * The loop is bounded whatever the service says: no page past ceil(total / limit) of the first page is asked
 * for, and a page that says more follow although it is the last the total allows, is short of `limit`, is
 * another page than the one asked for, or repeats the page before, ends the export instead of looping.
 */
import { encodeReportQuery, type ReportMeta, type ReportRequest, type ReportRow, type RowPage } from "../contract";
import { DataChangedError } from "../core/errors";
import type { OpenPage, ReceivedPage, ReportApi } from "./client";
import type { RequestSlots } from "./request-slots";

export interface Progress {
  page: number;
  pages: number;
  rows: number;
  total: number;
}

export interface PagingOptions {
  pageSize: number;
  concurrency: number;
  onProgress?: ((progress: Progress) => void) | undefined;
  signal?: AbortSignal | undefined;
  /** Requests at once shared with other paginations (--compare's other period), besides `concurrency`. */
  slots?: RequestSlots | undefined;
}

export interface PagedReport {
  meta: ReportMeta;
  /** False when rows are merged from several requests and their number is known only at the end. */
  totalKnown: boolean;
  /** The rows, a page at a time. */
  pages: AsyncIterable<RowPage>;
}

function changed(detail: string): DataChangedError {
  return new DataChangedError(`the report changed while it was being fetched (${detail})`, {
    hint: "run the export again; if it keeps happening, the service is still loading data for this range",
  });
}

/**
 * What tells a page from the one before: its size and its first and last rows. Rows of a report differ in
 * their dimensions, so two consecutive pages that agree on these are the same page served twice.
 */
type PageMark = string;

function markOf(rows: readonly ReportRow[]): PageMark | undefined {
  if (rows.length === 0) return undefined;
  return `${rows.length}:${JSON.stringify(rows[0])}:${JSON.stringify(rows[rows.length - 1])}`;
}

export async function openReport(api: ReportApi, request: ReportRequest, options: PagingOptions): Promise<PagedReport> {
  const first = await api.receiveReportPage(encodeReportQuery(request, 1, options.pageSize), options.signal);
  return { meta: first.page.meta, totalKnown: true, pages: pagesFrom(api, request, first, options) };
}

async function* pagesFrom(
  api: ReportApi,
  request: ReportRequest,
  first: ReceivedPage,
  options: PagingOptions,
): AsyncGenerator<RowPage> {
  const { total, limit } = first.page.meta;
  const pages = Math.max(1, Math.ceil(total / limit));
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  const inFlight = new Map<number, Promise<OpenPage>>();
  const open = (n: number): Promise<OpenPage> => {
    const opening = () => api.openReportPage(encodeReportQuery(request, n, limit), signal);
    return options.slots ? options.slots.run(opening) : opening();
  };
  let nextToAsk = 2;
  const fill = () => {
    while (nextToAsk <= pages && inFlight.size < Math.max(1, options.concurrency)) {
      const promise = open(nextToAsk);
      promise.catch(() => undefined); // awaited in order below; this only keeps an early failure from going unhandled
      inFlight.set(nextToAsk, promise);
      nextToAsk += 1;
    }
  };

  try {
    let received = first;
    let pageNumber = 1;
    let rows = 0;
    let previous: PageMark | undefined;
    for (;;) {
      const { page, sent } = received;
      if (page.meta.total !== total)
        throw changed(`total went from ${total} to ${page.meta.total} at page ${pageNumber}`);
      if (page.meta.page !== pageNumber) throw changed(`page ${pageNumber} was answered as page ${page.meta.page}`);
      if (page.meta.has_more && page.data.length === 0)
        throw changed(`page ${pageNumber} is empty but says more follow`);
      if (page.meta.has_more && pageNumber >= pages)
        throw changed(
          `page ${pageNumber} says more follow, but the ${total} rows announced fit in ${pages} pages of ${limit}`,
        );
      if (page.meta.has_more && page.data.length < limit)
        throw changed(`page ${pageNumber} has ${page.data.length} rows of ${limit} but says more follow`);
      const mark = markOf(page.data);
      if (previous !== undefined && mark !== undefined && mark === previous)
        throw changed(`page ${pageNumber} repeats page ${pageNumber - 1}`);
      previous = mark;
      rows += page.data.length;
      if (rows > total) throw changed(`more rows than the ${total} announced`);
      options.onProgress?.({ page: pageNumber, pages, rows, total });
      fill();
      yield { rows: page.data, sent };
      if (!page.meta.has_more) break;
      pageNumber += 1;
      const next = inFlight.get(pageNumber) ?? open(pageNumber);
      inFlight.delete(pageNumber);
      received = await (await next).read();
    }
    if (rows !== total) throw changed(`${rows} rows received, ${total} announced`);
  } finally {
    controller.abort();
  }
}
