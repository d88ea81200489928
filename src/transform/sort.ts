/**
 * --sort and --top: rows ordered by one metric (a row without a value last, either way; equal values keep
 * the service's order). With --top N only the N first are kept, in a bounded heap; --sort alone holds every
 * row until the report has ended.
 */
import type { ReportRow, RowPage } from "../contract";
import type { ReportStream } from "../contract/report-stream";
import { BoundedHeap } from "./bounded-heap";
import { inPages } from "./pages";

export interface SortOrder {
  metric: string;
  descending: boolean;
}

interface Ranked {
  row: ReportRow;
  value: number | undefined;
  seq: number;
}

function rankBefore(order: SortOrder): (a: Ranked, b: Ranked) => boolean {
  return (a, b) => {
    if (a.value !== b.value) {
      if (a.value === undefined) return false;
      if (b.value === undefined) return true;
      return order.descending ? a.value > b.value : a.value < b.value;
    }
    return a.seq < b.seq;
  };
}

function rank(row: ReportRow, metric: string, seq: number): Ranked {
  const value = row.metrics[metric];
  return { row, value: typeof value === "number" ? value : undefined, seq };
}

export function sortRows(report: ReportStream, order: SortOrder, top: number | undefined): ReportStream {
  const before = rankBefore(order);
  const source = report.pages;
  async function* sorted(): AsyncGenerator<RowPage> {
    const heap = top === undefined ? undefined : new BoundedHeap<Ranked>(top, before);
    const all: Ranked[] = [];
    let seq = 0;
    for await (const page of source) {
      for (const row of page.rows) {
        const item = rank(row, order.metric, seq++);
        if (heap) heap.push(item);
        else all.push(item);
      }
    }
    const kept = heap ? heap.drain() : all.sort((a, b) => (before(a, b) ? -1 : 1));
    yield* inPages(kept.map((item) => item.row));
  }
  const meta = top === undefined ? report.meta : { ...report.meta, total: Math.min(top, report.meta.total) };
  return { ...report, meta, pages: sorted() };
}
