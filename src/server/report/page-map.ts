/**
 * Where every page of an entity report starts, without its rows: the report's entities in id order and the
 * running count of rows up to each (rows come ordered by entity id, then bucket, docs/service.md §4). Any
 * page, asked in any order, is then the rows of the few entities it spans, skipping those before it in the
 * first: computed from those entities alone, never from the whole report.
 */

/**
 * What a kept map costs besides its numbers: its object, its two typed arrays and their buffers, and the
 * report object holding it (measured: about 550 bytes of heap for a map of 4 entities).
 */
const MAP_OVERHEAD_BYTES = 512;

/** The entities a page spans: ids `from` to `to` (inclusive), of whose rows the first `skip` are before it. */
export interface PageSpan {
  from: number;
  to: number;
  skip: number;
}

export class PageMap {
  private readonly ids: Float64Array;
  /** Rows up to and including each entity. */
  private readonly ends: Float64Array;

  /** `counts` are [entity id, its rows] in ascending id order, as the counting query returns them. */
  constructor(counts: Iterable<readonly [number, number]>) {
    const ids: number[] = [];
    const ends: number[] = [];
    let total = 0;
    for (const [id, rows] of counts) {
      if (rows <= 0) continue;
      if (ids.length > 0 && id <= (ids[ids.length - 1] as number)) {
        throw new Error(`entity ids must ascend: ${id} after ${ids[ids.length - 1]}`);
      }
      total += rows;
      ids.push(id);
      ends.push(total);
    }
    this.ids = Float64Array.from(ids);
    this.ends = Float64Array.from(ends);
  }

  get total(): number {
    return this.ends.length > 0 ? (this.ends[this.ends.length - 1] as number) : 0;
  }

  get entities(): number {
    return this.ids.length;
  }

  /** What keeping the map costs: two numbers an entity. */
  get bytes(): number {
    return MAP_OVERHEAD_BYTES + this.ids.byteLength + this.ends.byteLength;
  }

  /** The entities rows [start, start + count) come from, or undefined when the page is past the end. */
  span(start: number, count: number): PageSpan | undefined {
    if (start >= this.total || count <= 0) return undefined;
    const first = this.entityOfRow(start);
    const last = this.entityOfRow(Math.min(start + count, this.total) - 1);
    const before = first > 0 ? (this.ends[first - 1] as number) : 0;
    return { from: this.ids[first] as number, to: this.ids[last] as number, skip: start - before };
  }

  /** The index of the entity holding row `row` (0-based): the first whose running count passes it. */
  private entityOfRow(row: number): number {
    let lo = 0;
    let hi = this.ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.ends[mid] as number) > row) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
