/**
 * What a job's run record keeps of each run beyond its outcome, for `adreport status`: the run's figures
 * from its summary, the days the service restated, the waits for its rate limit, and the runs before it.
 */
import type { WaitEvent } from "../../api";
import { type DayRecord, totalDifferences } from "../../state/day-record";
import { type LastRun, RECENT_RUNS } from "../../state/store";
import type { EngineEvents } from "../events";
import type { DaySummary } from "../run/summary";

/**
 * A day fetched again whose rows or sums differ from the ledger's, or whose bytes do (both digests known): the
 * service restated it. A file removed or edited locally and written again as it was is no restatement.
 */
export function isRestated(before: DayRecord, after: DayRecord): boolean {
  if (before === after) return false;
  if (totalDifferences(before, after).length > 0) return true;
  return before.digest !== undefined && after.digest !== undefined && before.digest !== after.digest;
}

/** The new record of a job's runs: `run`, then the last one and those before it, RECENT_RUNS in all. */
export function nextRunRecord(previous: LastRun | undefined, run: LastRun): LastRun {
  if (previous === undefined || typeof previous !== "object" || previous === null) return run;
  const { earlier, ...last } = previous;
  const before = Array.isArray(earlier) ? earlier : [];
  return { ...run, earlier: [last, ...before].slice(0, RECENT_RUNS - 1) };
}

/** The run's own figures, from its summary and when it started. */
export function runFigures(summary: DaySummary, runId: string, started: Date): Partial<LastRun> {
  return {
    run: runId,
    started: started.toISOString(),
    rows: summary.rows,
    requests: summary.requests,
    daysWritten: summary.days_written,
    daysChanged: summary.days_changed,
    daysUnchanged: summary.days_unchanged,
  };
}

/** A run's waits for the service's rate limit or quota (a retry's backoff is not one). */
export interface WaitTally {
  waits: number;
  waitedMs: number;
}

/** `events` with the waits their progress display is told about counted into `tally`. */
export function countingWaits(events: EngineEvents, tally: WaitTally): EngineEvents {
  const counted = (event: WaitEvent) => {
    if (event.source === "retry") return;
    tally.waits += 1;
    tally.waitedMs += Math.max(0, Math.round(event.waitMs));
  };
  // Every other event as the run's own (optional ones too: bytes, restarts, days in place).
  return {
    ...events,
    async progress(options) {
      const sink = await events.progress(options);
      return {
        onEvent(event) {
          if (event.kind === "wait") counted(event);
          sink.onEvent(event);
        },
        onProgress: (progress) => sink.onProgress(progress),
        ...(sink.onBytes === undefined ? {} : { onBytes: (count: number) => sink.onBytes?.(count) }),
        stop: () => sink.stop(),
      };
    },
  };
}
