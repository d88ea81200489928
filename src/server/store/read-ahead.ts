/**
 * Sequential read-ahead of an entity report, as a file system reads ahead: once a client has asked two
 * pages of a report in a row, the page after the one just answered is read as soon as that one is on its
 * way, while the client takes it in, and kept with the report (within its share of `--cache-mb`) for the
 * request that follows. A client asking one page, or pages out of order, costs no read more.
 */
import type { ReportQuery } from "../../contract";
import { type ComputedReport, type ComputedReports, READ_AHEAD_ROWS } from "../report/computed-reports";
import type { PageMap } from "../report/page-map";
import type { ServeBackend, ServeReads } from "./backend";
import { type Steps, step } from "./steps";

/** A page being read ahead on a backend that answers later (PostgreSQL). */
interface UnderWay {
  start: number;
  done: Promise<unknown>;
}

export class PageReadAhead {
  /** Where the last page asked of each report ended, by its map (shared by the report's kept versions). */
  private readonly lastEnds = new WeakMap<PageMap, number>();
  private readonly underWay = new WeakMap<PageMap, UnderWay>();

  constructor(
    private readonly reports: ComputedReports,
    private readonly generation: () => number,
    private readonly backend: ServeBackend,
  ) {}

  /** The read of the page at row `start` of `report` under way, to wait for rather than read it twice. */
  pending(report: ComputedReport, start: number): Promise<unknown> | undefined {
    const read = report.map && this.underWay.get(report.map);
    return read?.start === start ? read.done : undefined;
  }

  /** Rows [start, start + count) of the report `key` were answered: reads the next page when in sequence. */
  answered(
    key: string,
    report: ComputedReport,
    query: ReportQuery,
    advertiserId: number,
    start: number,
    count: number,
  ) {
    const map = report.map;
    if (!map || count < READ_AHEAD_ROWS) return;
    const inSequence = this.lastEnds.get(map) === start;
    const next = start + count;
    this.lastEnds.set(map, next);
    if (!inSequence || next >= report.total || this.underWay.has(map) || report.next?.start === next) return;
    const generation = this.generation();
    // After this response is written: on SQLite the read then runs before the next request is taken.
    setImmediate(() => this.read(key, map, query, advertiserId, next, count, generation));
  }

  private read(
    key: string,
    map: PageMap,
    query: ReportQuery,
    advertiserId: number,
    start: number,
    count: number,
    generation: number,
  ) {
    const { reports } = this;
    const current = () => (generation === this.generation() ? reports.get(key) : undefined);
    if (current()?.map !== map) return;
    let result: unknown;
    try {
      result = this.backend.snapshot(function* (db: ServeReads): Steps<void> {
        const span = map.span(start, count);
        const report = current();
        if (!span || report?.map !== map) return;
        let rows: Buffer;
        if (db.readJoinedPage) rows = yield* step(db.readJoinedPage(query, advertiserId, span, count));
        else {
          const read = yield* step(db.readPage(query, advertiserId, span, count));
          if (read.version !== report.version) return;
          rows = Buffer.from(read.rows.join(","));
        }
        const now = current();
        if (now?.map === map) reports.keepNext(key, now, { start, count, rows });
      });
    } catch {
      return; // the request for that page reads it, and answers the failure
    }
    if (!(result instanceof Promise)) return;
    const done = result.then(
      () => this.underWay.delete(map),
      () => this.underWay.delete(map),
    );
    this.underWay.set(map, { start, done });
  }
}
