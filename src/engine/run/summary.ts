/** How a run ended, for `--summary json` (written by the command: commands/shared/summary-out.ts). */
import { type ApiEvent, isThrottled } from "../../api";

export interface RunSummary {
  outcome: "ok" | "failed" | "nothing to do";
  error?: string;
  from: string | undefined;
  to: string | undefined;
  /** Whole-day targets only ({date} files, a database, --incremental). */
  days_written?: number;
  days_changed?: number;
  days_unchanged?: number;
  rows: number;
  /** Every request sent, retries included, answered or not (one dropped when the run ended counts too). */
  requests: number;
  /** Of the requests, those that were another try of a page. */
  retries: number;
  /** Answers 429 (too many requests), also counted in `requests`. */
  throttled: number;
}

/** The summary of a run into whole-day targets. */
export interface DaySummary extends RunSummary {
  days_written: number;
  days_changed: number;
  days_unchanged: number;
}

/** Counts an API event into a summary: each request sent is a request; a retry is also a retry. */
export function countEvent(summary: Pick<RunSummary, "requests" | "retries" | "throttled">, event: ApiEvent): void {
  if (event.kind === "sent") summary.requests += 1;
  else if (event.kind === "retry") summary.retries += 1;
  else if (isThrottled(event)) summary.throttled += 1;
}

/** The object of --summary for one run: its job (incremental runs) first, null for others. */
export function summaryObject(summary: RunSummary, job: string | undefined): object {
  return { job: job ?? null, ...summary };
}
