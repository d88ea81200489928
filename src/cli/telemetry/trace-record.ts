/**
 * The trace of a run, kept as plain records while it runs (run → account → 90-day window → request) and
 * handed to OpenTelemetry's SDK at the end (otel-export.ts): the SDK and its exporters load beside the run,
 * never in its way. Times are epoch milliseconds. Attributes follow OpenTelemetry's HTTP client
 * conventions; a URL never holds the key (it travels in a header, and no header is kept).
 */
import type { ApiEvent, RunObserver } from "../../commands/telemetry";

export type AttributeValue = string | number | boolean;

export interface RecordedEvent {
  readonly name: string;
  readonly time: number;
  readonly attributes: Record<string, AttributeValue>;
}

export interface RecordedSpan {
  readonly name: string;
  readonly kind: "internal" | "client";
  readonly start: number;
  end: number | undefined;
  readonly attributes: Record<string, AttributeValue>;
  readonly events: RecordedEvent[];
  readonly children: RecordedSpan[];
  /** Set when what the span stands for failed. */
  error: string | undefined;
}

export function recordedSpan(
  name: string,
  kind: RecordedSpan["kind"],
  attributes: Record<string, AttributeValue> = {},
  start = Date.now(),
): RecordedSpan {
  return { name, kind, start, end: undefined, attributes, events: [], children: [], error: undefined };
}

/** Records one account's part of the run under `parent` (the run's span). */
export class TraceRecorder implements RunObserver {
  private span: RecordedSpan | undefined;
  private readonly windows = new Map<string, RecordedSpan>();
  private readonly requests = new Map<string, RecordedSpan>();
  private current: RecordedSpan | undefined;
  private implicit: TraceRecorder | undefined;
  private readonly accounts: TraceRecorder[] = [];

  constructor(
    private readonly parent: RecordedSpan,
    private readonly profile: string | undefined,
    /** The run's own recorder, which hands what a run over one account tells it to an account of its own. */
    private readonly isRun = false,
  ) {}

  account(profile: string): RunObserver {
    const account = new TraceRecorder(this.parent, profile);
    this.accounts.push(account);
    return account;
  }

  /** The run's account when it has no named ones: what the engine tells the run goes there. */
  private target(): TraceRecorder {
    if (!this.isRun) return this;
    this.implicit ??= new TraceRecorder(this.parent, undefined);
    return this.implicit;
  }

  private accountSpan(): RecordedSpan {
    if (this.span === undefined) {
      const name = this.profile === undefined ? "account" : `account ${this.profile}`;
      this.span = recordedSpan(
        name,
        "internal",
        this.profile === undefined ? {} : { "adreport.profile": this.profile },
      );
      this.parent.children.push(this.span);
    }
    return this.span;
  }

  private windowSpan(url: string): RecordedSpan {
    const query = new URL(url).searchParams;
    const from = query.get("from") ?? "";
    const to = query.get("to") ?? "";
    const key = `${from}|${to}`;
    let window = this.windows.get(key);
    if (window === undefined) {
      window = recordedSpan(`window ${from.slice(0, 10)}..${to.slice(0, 10)}`, "internal", {
        "adreport.window.from": from,
        "adreport.window.to": to,
      });
      this.accountSpan().children.push(window);
      this.windows.set(key, window);
    }
    this.current = window;
    return window;
  }

  apiEvent(event: ApiEvent): void {
    if (this.isRun) {
      this.target().apiEvent(event);
      return;
    }
    const now = Date.now();
    if (event.kind === "sent") {
      const url = new URL(event.url);
      // No user or password of a base URL in a span.
      url.username = "";
      url.password = "";
      const request = recordedSpan("GET", "client", {
        "http.request.method": event.method,
        "url.full": url.href,
        "server.address": url.hostname,
        "server.port": Number(url.port || (url.protocol === "https:" ? 443 : 80)),
        ...(event.attempt > 1 && { "http.request.resend_count": event.attempt - 1 }),
      });
      this.windowSpan(event.url).children.push(request);
      this.requests.set(`${event.url}#${event.attempt}`, request);
      return;
    }
    if (event.kind === "response" || event.kind === "failure") {
      const key = `${event.url}#${event.attempt}`;
      const request = this.requests.get(key);
      if (request === undefined) return;
      this.requests.delete(key);
      request.end = now;
      if (event.kind === "response") {
        request.attributes["http.response.status_code"] = event.status;
        if (event.status >= 400) {
          request.attributes["error.type"] = String(event.status);
          request.error = `HTTP ${event.status}`;
        }
      } else {
        request.attributes["error.type"] = "failure";
        request.error = event.reason;
      }
      const window = this.windowSpan(event.url);
      window.end = Math.max(window.end ?? 0, now);
      return;
    }
    const where = this.current ?? this.accountSpan();
    if (event.kind === "retry") {
      where.events.push({
        name: "retry",
        time: now,
        attributes: {
          "adreport.retry": event.retry,
          "adreport.retry.of": event.of,
          "adreport.wait_ms": event.waitMs,
          "adreport.reason": event.reason,
        },
      });
    } else {
      const name = event.source === "service" || event.source === "pace" ? "rate_limit.wait" : "wait";
      where.events.push({
        name,
        time: now,
        attributes: {
          "adreport.wait.source": event.source,
          "adreport.wait_ms": event.waitMs,
          "adreport.reason": event.reason,
        },
      });
    }
  }

  bytes(): void {}

  dayInPlace(): void {}

  dayChanged(day: string): void {
    if (this.isRun) {
      this.target().dayChanged(day);
      return;
    }
    this.accountSpan().events.push({ name: "day.restated", time: Date.now(), attributes: { "adreport.day": day } });
  }

  restarted(): void {
    if (this.isRun) {
      this.target().restarted();
      return;
    }
    this.accountSpan().events.push({ name: "restart", time: Date.now(), attributes: {} });
  }

  summary(summary: Readonly<Record<string, unknown>>): void {
    if (this.isRun) {
      this.target().summary(summary);
      return;
    }
    const span = this.accountSpan();
    const now = Date.now();
    for (const name of ["outcome", "job", "rows", "requests", "retries", "throttled", "days_written", "days_changed"]) {
      const value = summary[name];
      if (typeof value === "string" || typeof value === "number") span.attributes[`adreport.${name}`] = value;
    }
    if (summary.outcome === "failed") span.error = typeof summary.error === "string" ? summary.error : "failed";
    this.close(now);
  }

  /** Ends what is still open (a run stopped mid-request): its requests as dropped. */
  close(now = Date.now()): void {
    if (this.isRun) {
      for (const account of [...this.accounts, ...(this.implicit ? [this.implicit] : [])]) account.close(now);
      return;
    }
    for (const request of this.requests.values()) {
      request.end = now;
      request.error ??= "not answered before the run ended";
      request.attributes["error.type"] ??= "cancelled";
    }
    this.requests.clear();
    for (const window of this.windows.values()) window.end ??= now;
    if (this.span !== undefined) this.span.end ??= now;
  }
}
