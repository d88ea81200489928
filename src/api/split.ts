/**
 * Ranges longer than the service's 90 days, in the windows of contract/range-windows.ts (at most 90 x 24 h):
 * each fetched as its own report, and their rows merged in the contract's order (entity id, then bucket)
 * with the metrics of equal rows summed. All four metrics are additive, so a week or month cut in two by a
 * window boundary comes out whole. Each window streams; memory holds a few pages per window.
 */
import { type ReportRequest, type ReportRow, type RowPage, roundToMicros, rowsOf } from "../contract";
import { UnavailableError } from "../core/errors";
import type { ReportApi } from "./client";
import { UnmergeableRowsError } from "./errors";
import { openReport, type PagedReport, type PagingOptions } from "./paginate";

const ENTITY_ID_KEYS = ["campaign_id", "ad_id", "keyword_id"] as const;

type KeyPart = number | string;
type SortKey = [KeyPart, KeyPart];

/** Numbers as sent (the contract's ids and epoch seconds); anything else, as text (ISO dates sort as text). */
function part(value: unknown): KeyPart {
  return typeof value === "number" && Number.isFinite(value) ? value : String(value ?? "");
}

function sortKey(row: ReportRow, entityKey: string | undefined): SortKey {
  return [entityKey === undefined ? 0 : part(row.dimensions[entityKey]), part(row.dimensions.date)];
}

/** A total order, whatever a service sends: numbers before text, numbers by value, text by code point. */
function comparePart(a: KeyPart, b: KeyPart): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compare(a: SortKey, b: SortKey): number {
  return comparePart(a[0], b[0]) || comparePart(a[1], b[1]);
}

/**
 * A request over the windows it was planned in: none (a range within 90 days), one (the range is that
 * window), or several, fetched one after the other and merged (openSplitReport).
 */
export function openWindows(
  api: ReportApi,
  request: ReportRequest,
  windows: ReadonlyArray<{ from: string; to: string }> | undefined,
  options: PagingOptions,
): Promise<PagedReport> {
  if (windows === undefined) return openReport(api, request, options);
  const [only] = windows;
  if (windows.length === 1 && only !== undefined) return openReport(api, { ...request, ...only }, options);
  return openSplitReport(api, request, windows, options);
}

export async function openSplitReport(
  api: ReportApi,
  request: ReportRequest,
  windows: ReadonlyArray<{ from: string; to: string }>,
  options: PagingOptions,
): Promise<PagedReport> {
  const perWindow = { ...options, concurrency: Math.max(1, Math.ceil(options.concurrency / windows.length)) };
  const reports: PagedReport[] = [];
  for (const w of windows) reports.push(await openReport(api, { ...request, from: w.from, to: w.to }, perWindow));
  const meta = reports[0]?.meta;
  if (!meta) throw new UnavailableError("no window to fetch");
  const entity = meta.dimensions.find((d) => d !== "date");
  const entityKey =
    entity === undefined ? undefined : (ENTITY_ID_KEYS.find((k) => k.startsWith(entity)) ?? `${entity}_id`);
  return { meta: { ...meta, total: 0 }, totalKnown: false, pages: inBatches(merge(reports, entityKey)) };
}

const BATCH = 1000;

async function* inBatches(rows: AsyncIterable<ReportRow>): AsyncGenerator<RowPage> {
  let batch: ReportRow[] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= BATCH) {
      yield { rows: batch };
      batch = [];
    }
  }
  if (batch.length > 0) yield { rows: batch };
}

async function* merge(reports: PagedReport[], entityKey: string | undefined): AsyncGenerator<ReportRow> {
  const sources = reports.map((r) => rowsOf(r.pages)[Symbol.asyncIterator]());
  const heads: Array<{ row: ReportRow; key: SortKey } | undefined> = [];
  const advance = async (i: number) => {
    const next = await (sources[i] as AsyncIterator<ReportRow>).next();
    const previous = heads[i];
    if (next.done) {
      heads[i] = undefined;
      return;
    }
    const key = sortKey(next.value, entityKey);
    if (previous && compare(key, previous.key) < 0) {
      throw new UnmergeableRowsError(
        "the service's rows are not in entity-then-date order, so reports over 90 days cannot be merged",
      );
    }
    heads[i] = { row: next.value, key };
  };
  try {
    for (let i = 0; i < sources.length; i += 1) await advance(i);
    for (;;) {
      let min: SortKey | undefined;
      for (const head of heads) if (head && (!min || compare(head.key, min) < 0)) min = head.key;
      if (!min) return;
      let merged: ReportRow | undefined;
      for (let i = 0; i < heads.length; i += 1) {
        const head = heads[i];
        if (!head || compare(head.key, min) !== 0) continue;
        if (!merged) {
          merged = { ...head.row, metrics: { ...head.row.metrics } };
        } else {
          for (const [name, value] of Object.entries(head.row.metrics)) {
            merged.metrics[name] = roundToMicros((merged.metrics[name] ?? 0) + (value ?? 0));
          }
        }
        await advance(i);
      }
      if (merged) yield merged;
    }
  } finally {
    await Promise.all(sources.map((s) => s.return?.(undefined)));
  }
}
