/**
 * The figures of a run, per account, counted from the engine's events (commands/telemetry.ts): what
 * --metrics-file writes and what OpenTelemetry's metrics carry. A run over one account is one account
 * without a name.
 */
import type { ApiEvent, RunObserver } from "../../commands/telemetry";

export interface AccountFigures {
  /** The profile of a run over several; undefined for a run over one. */
  readonly profile: string | undefined;
  /** The incremental job's id, from its summary. */
  job: string | undefined;
  /** "ok", "failed", "nothing to do"; undefined when the account never ended (the run was stopped). */
  outcome: string | undefined;
  rows: number;
  requests: number;
  retries: number;
  /** Answers 429. */
  throttled: number;
  /** Time spent waiting because the service's limits asked to (its pace, Retry-After, a 429's backoff). */
  throttledMs: number;
  bytes: number;
  daysWritten: number;
  daysRestated: number;
  restarts: number;
  /**
   * The newest day (YYYY-MM-DD) in the data: of a run of whole days, the newest day put in place that has
   * rows (none when every day it fetched was empty); of another export that ended well, its range's end.
   */
  newestDay: string | undefined;
  readonly startedMs: number;
  endedMs: number | undefined;
}

/** An observer that counts; `also` is told everything too (the tracer). */
export class FiguresObserver implements RunObserver {
  readonly figures: AccountFigures;
  private lastStatus: number | undefined;
  private restatedSeen = 0;
  /** Whether the run put whole days in place (dayInPlace), which then say the newest day. */
  private daysSeen = false;

  constructor(
    profile: string | undefined,
    private readonly accounts: AccountFigures[],
    private readonly also: RunObserver | undefined,
  ) {
    this.figures = {
      profile,
      job: undefined,
      outcome: undefined,
      rows: 0,
      requests: 0,
      retries: 0,
      throttled: 0,
      throttledMs: 0,
      bytes: 0,
      daysWritten: 0,
      daysRestated: 0,
      restarts: 0,
      newestDay: undefined,
      startedMs: Date.now(),
      endedMs: undefined,
    };
    accounts.push(this.figures);
  }

  account(profile: string): RunObserver {
    return new FiguresObserver(profile, this.accounts, this.also?.account(profile));
  }

  apiEvent(event: ApiEvent): void {
    this.also?.apiEvent(event);
    const figures = this.figures;
    if (event.kind === "sent") figures.requests += 1;
    else if (event.kind === "retry") figures.retries += 1;
    else if (event.kind === "response") {
      this.lastStatus = event.status;
      if (event.status === 429) figures.throttled += 1;
    } else if (event.kind === "wait") {
      // A retry's backoff is the service's doing only after a 429; the other waits are its limits' (or the
      // key's pace, which keeps them).
      if (event.source !== "retry" || this.lastStatus === 429) figures.throttledMs += event.waitMs;
    }
  }

  bytes(count: number): void {
    this.also?.bytes(count);
    this.figures.bytes += count;
  }

  dayInPlace(day: string, rows: number): void {
    this.also?.dayInPlace(day, rows);
    this.daysSeen = true;
    if (rows > 0 && (this.figures.newestDay === undefined || day > this.figures.newestDay))
      this.figures.newestDay = day;
  }

  dayChanged(day: string): void {
    this.also?.dayChanged(day);
    this.restatedSeen += 1;
  }

  restarted(): void {
    this.also?.restarted();
    this.figures.restarts += 1;
  }

  summary(summary: Readonly<Record<string, unknown>>): void {
    const figures = this.figures;
    const count = (name: string) => (typeof summary[name] === "number" ? (summary[name] as number) : undefined);
    figures.outcome = typeof summary.outcome === "string" ? summary.outcome : undefined;
    figures.job = typeof summary.job === "string" ? summary.job : undefined;
    figures.rows = count("rows") ?? figures.rows;
    // The summary's own counts where it has them: they are the ones --summary json shows.
    figures.requests = count("requests") ?? figures.requests;
    figures.retries = count("retries") ?? figures.retries;
    figures.throttled = count("throttled") ?? figures.throttled;
    figures.daysWritten = count("days_written") ?? 0;
    figures.daysRestated = count("days_changed") ?? this.restatedSeen;
    const to = typeof summary.to === "string" ? summary.to.slice(0, 10) : undefined;
    if (!this.daysSeen && figures.outcome === "ok" && to !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(to)) {
      figures.newestDay = to;
    }
    figures.endedMs = Date.now();
    this.also?.summary(summary);
  }
}
