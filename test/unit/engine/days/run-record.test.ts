/**
 * What a job's run record keeps for `adreport status`: a restated day told from a file written again as it
 * was, the runs kept (the last and 29 before it), the rate-limit waits counted (a retry's backoff not).
 */
import { describe, expect, it } from "vitest";
import type { WaitEvent } from "../../../../src/api";
import { countingWaits, isRestated, nextRunRecord, type WaitTally } from "../../../../src/engine/days/run-record";
import { type LastRun, RECENT_RUNS } from "../../../../src/state/store";
import { recordingEvents } from "../../../helpers/recorded-events";

const record = (rows: number, clicks: number, digest?: string) => ({
  rows,
  sums: { clicks },
  ...(digest === undefined ? {} : { digest }),
});

describe("run record", () => {
  it("a day is restated when its rows, a sum or its bytes differ; not when written again as it was", () => {
    const before = record(3, 10, "aa");
    expect(isRestated(before, before)).toBe(false);
    expect(isRestated(before, record(3, 10, "aa"))).toBe(false);
    expect(isRestated(before, record(4, 10, "aa"))).toBe(true);
    expect(isRestated(before, record(3, 11, "aa"))).toBe(true);
    expect(isRestated(before, record(3, 10, "bb"))).toBe(true);
    // An earlier adreport kept no digest: only the totals can tell.
    expect(isRestated(record(3, 10), record(3, 10, "bb"))).toBe(false);
  });

  it("keeps the last run first and the runs before it, RECENT_RUNS in all, none nested", () => {
    let kept: LastRun | undefined;
    for (let i = 0; i < 40; i += 1) {
      kept = nextRunRecord(kept, { at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(), outcome: "ok" });
    }
    const runs = [kept as LastRun, ...((kept as LastRun).earlier ?? [])];
    expect(runs).toHaveLength(RECENT_RUNS);
    expect(runs.map((run) => run.at.slice(0, 10)).slice(0, 2)).toEqual(["2026-02-09", "2026-02-08"]);
    expect(runs.slice(1).every((run) => run.earlier === undefined)).toBe(true);
    // A record an earlier adreport wrote, or one edited by hand into no list, is kept as the one run before.
    expect(nextRunRecord({ at: "x", outcome: "ok", earlier: 5 as never }, { at: "y", outcome: "failed" })).toEqual({
      at: "y",
      outcome: "failed",
      earlier: [{ at: "x", outcome: "ok" }],
    });
  });

  it("counts the waits its progress display is told about, the retries' backoff aside, and passes every event on", async () => {
    const recorded = recordingEvents();
    const tally: WaitTally = { waits: 0, waitedMs: 0 };
    const events = countingWaits(recorded.events, tally);
    const sink = await events.progress({ quiet: true, verbose: false });
    const wait = (source: WaitEvent["source"], waitMs: number): WaitEvent => ({
      kind: "wait",
      source,
      waitMs,
      until: 0,
      reason: "r",
    });
    sink.onEvent(wait("service", 30_000));
    sink.onEvent(wait("pace", 1_500.4));
    sink.onEvent(wait("shared", 500));
    sink.onEvent(wait("retry", 9_000));
    events.note("hello");
    expect(tally).toEqual({ waits: 3, waitedMs: 32_000 });
    expect(recorded.api("wait")).toHaveLength(4);
    expect(recorded.said()).toEqual(["note: hello"]);
  });
});
