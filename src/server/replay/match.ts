/**
 * Which recorded answer a request gets: the same method, path and query parameters (in any order). The
 * same request recorded several times (a retry after a 503, a page asked again after a restart) gets its
 * answers in the order recorded, the last one again after that.
 */
import type { RecordedExchange, RecordedResponse } from "../../contract";

type Query = ReadonlyArray<readonly [string, string]>;

function requestKey(method: string, path: string, query: Query): string {
  const sorted = [...query].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  return JSON.stringify([method, path, sorted]);
}

export interface Asked {
  method: string;
  path: string;
  query: Query;
}

/** What differs between a request and the nearest recorded one, for the 404 of an unrecorded request. */
export interface Nearest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Each parameter that differs: recorded value and asked value (absent when not given). */
  differs: Array<{ param: string; recorded?: string; asked?: string }>;
}

function difference(asked: Query, recorded: Query): Nearest["differs"] {
  const a = new Map(asked);
  const r = new Map(recorded);
  const names = [...new Set([...r.keys(), ...a.keys()])];
  return names
    .filter((name) => a.get(name) !== r.get(name))
    .map((param) => ({
      param,
      ...(r.has(param) ? { recorded: r.get(param) } : {}),
      ...(a.has(param) ? { asked: a.get(param) } : {}),
    }));
}

export class ReplayTable {
  private readonly answers = new Map<string, RecordedResponse[]>();
  private readonly served = new Map<string, number>();
  private readonly requests: Asked[] = [];

  constructor(exchanges: readonly RecordedExchange[]) {
    for (const { request, response } of exchanges) {
      if (!response) continue;
      const key = requestKey(request.method, request.path, request.query);
      const list = this.answers.get(key);
      if (list) list.push(response);
      else {
        this.answers.set(key, [response]);
        this.requests.push(request);
      }
    }
  }

  get size(): number {
    return this.requests.length;
  }

  /** The next recorded answer to this request, or undefined when it was not recorded. */
  answer(asked: Asked): RecordedResponse | undefined {
    const key = requestKey(asked.method, asked.path, asked.query);
    const list = this.answers.get(key);
    if (!list) return undefined;
    const count = this.served.get(key) ?? 0;
    this.served.set(key, count + 1);
    return list[Math.min(count, list.length - 1)];
  }

  /** The recorded request with the fewest differences: same path first, then same method, then parameters. */
  nearest(asked: Asked): Nearest | undefined {
    let best: { score: number; nearest: Nearest } | undefined;
    for (const request of this.requests) {
      const differs = difference(asked.query, request.query);
      const score =
        (request.path === asked.path ? 0 : 10_000) + (request.method === asked.method ? 0 : 1_000) + differs.length;
      if (best === undefined || score < best.score) {
        best = {
          score,
          nearest: {
            method: request.method,
            path: request.path,
            query: Object.fromEntries(request.query),
            differs,
          },
        };
      }
    }
    return best?.nearest;
  }
}
