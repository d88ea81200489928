/** Which recorded answer a replayed request gets, and which recorded request is nearest to one never recorded. */
import { describe, expect, it } from "vitest";
import type { RecordedExchange } from "../../src/contract";
import { ReplayTable } from "../../src/server/replay/match";

function recorded(
  number: number,
  query: Array<[string, string]>,
  status: number,
  path = "/v1/report",
): RecordedExchange {
  return {
    number,
    request: { method: "GET", path, query, headers: [] },
    response: { status, headers: [], body: Buffer.from(String(number)) },
  };
}

const page = (n: string): Array<[string, string]> => [
  ["from", "2026-10-01"],
  ["page", n],
];

describe("the replay table", () => {
  const table = () =>
    new ReplayTable([recorded(1, page("1"), 503), recorded(2, page("1"), 200), recorded(3, page("2"), 200)]);

  it("answers one request's recordings in order, then the last again, whatever the parameters' order", () => {
    const t = table();
    const ask = { method: "GET", path: "/v1/report", query: [...page("1")].reverse() };
    expect([t.answer(ask)?.status, t.answer(ask)?.status, t.answer(ask)?.status]).toEqual([503, 200, 200]);
    expect(t.answer({ ...ask, method: "POST" })).toBeUndefined();
    expect(t.size).toBe(2);
  });

  it("names the nearest recorded request and each parameter that differs", () => {
    const nearest = table().nearest({ method: "GET", path: "/v1/report", query: [...page("3"), ["limit", "5"]] });
    expect(nearest?.query).toEqual({ from: "2026-10-01", page: "1" });
    expect(nearest?.differs).toEqual([
      { param: "page", recorded: "1", asked: "3" },
      { param: "limit", asked: "5" },
    ]);
    expect(new ReplayTable([]).nearest({ method: "GET", path: "/", query: [] })).toBeUndefined();
  });
});
