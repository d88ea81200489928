/**
 * The one client of the reporting API, as commands use it: a page of `GET /v1/report` asked for with one
 * budget of retries (retry.ts), sent by the transport (transport.ts), its answer read as a page
 * (body/page.ts) or as the error its status means (status-error.ts). The key never reaches a message.
 */
import { parseBaseUrl, type ReportPage, reportEndpoint } from "../contract";
import { UsageError } from "../core/errors";
import { pageFrom, type ReceivedPage } from "./body/page";
import type { Pacer } from "./pace";
import type { Recorder } from "./record";
import { type Redactor, redactor } from "./redact";
import type { RequestEvent } from "./request-event";
import {
  abortableSleep,
  type BackoffPolicy,
  DEFAULT_BACKOFF,
  type Opened,
  openWithRetries,
  type RetryBudget,
  type RetryEvent,
  type Sleep,
} from "./retry";
import type { ProxyChoice, RouteOptions } from "./route";
import { statusError } from "./status-error";
import { Transport } from "./transport";
import type { Dispatcher } from "./undici";
import type { WaitEvent } from "./wait-event";

export type { ReceivedPage } from "./body/page";
export type { WaitEvent } from "./wait-event";

export type ApiEvent = RequestEvent | RetryEvent | WaitEvent;

/** An answer 429 (`throttled` in a run's summary): counted beside the requests, of which it is one. */
export function isThrottled(event: ApiEvent): boolean {
  return event.kind === "response" && event.status === 429;
}

interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  timeoutMs: number;
  retries: number;
  /** The most bytes one answer's body may have (default 64 MB); over it the export fails, unretried. */
  maxPageBytes?: number | undefined;
  dispatcher?: Dispatcher | undefined;
  /** Where the proxy settings come from, when no dispatcher is given (see route.ts). */
  route?: RouteOptions | undefined;
  backoff?: BackoffPolicy;
  onEvent?: ((event: ApiEvent) => void) | undefined;
  /** The size of each answer's body, once read. */
  onBytes?: ((count: number) => void) | undefined;
  /** Keeps every exchange (`--record`). */
  recorder?: Recorder | undefined;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
  /** Paces every request (pace.ts); shared by the clients of one key and base URL. None: no pacing. */
  pacer?: Pacer | undefined;
  /** When the run must end (epoch ms): a Retry-After or a quota's wait past it ends the run at once. */
  deadline?: number | undefined;
}

/** A page whose answer has begun: status and headers are in; the body is read when it is this page's turn. */
export type OpenPage = Opened<ReceivedPage>;

const DEFAULT_MAX_PAGE_BYTES = 64 * 1024 * 1024;

const BASE_URL_PROBLEMS = {
  "not-absolute": (text: string) => `the base URL ${JSON.stringify(text)} is not an absolute http(s) URL`,
  "not-http": (text: string) => `the base URL ${JSON.stringify(text)} is not an http(s) URL`,
  "has-credentials": () => "the base URL must not carry a user name or password",
};

export class ReportApi {
  /** The proxy requests go through, if any (for the caller to show). */
  readonly proxy: ProxyChoice | undefined;
  private readonly base: URL;
  /** The report endpoint's origin and path, worked out once: pages differ only in their query. */
  private readonly origin: string;
  private readonly endpointPath: string;
  private readonly transport: Transport;
  private readonly budget: RetryBudget;
  private readonly redactor: Redactor;
  private readonly now: () => number;
  private readonly pacer: Pacer | undefined;
  private readonly deadline: number | undefined;
  private readonly onEvent: ((event: ApiEvent) => void) | undefined;

  constructor(options: ApiClientOptions) {
    const checked = parseBaseUrl(options.baseUrl);
    if (!checked.ok) throw new UsageError(BASE_URL_PROBLEMS[checked.problem](options.baseUrl));
    this.base = checked.url;
    const endpoint = reportEndpoint(this.base);
    this.origin = endpoint.origin;
    this.endpointPath = endpoint.pathname;
    this.now = options.now ?? Date.now;
    this.pacer = options.pacer;
    this.deadline = options.deadline;
    this.onEvent = options.onEvent;
    this.redactor = redactor(options.apiKey);
    this.transport = new Transport({
      base: this.base,
      apiKey: options.apiKey,
      userAgent: options.userAgent,
      timeoutMs: options.timeoutMs,
      maxPageBytes: options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES,
      dispatcher: options.dispatcher,
      route: options.route,
      onEvent: options.onEvent,
      onBytes: options.onBytes,
      recorder: options.recorder,
      now: this.now,
    });
    this.proxy = this.transport.proxy;
    this.budget = {
      retries: options.retries,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      sleep: options.sleep ?? abortableSleep,
      random: options.random ?? Math.random,
      onRetry: options.onEvent,
      now: this.now,
      deadline: options.deadline,
    };
  }

  async getReportPage(params: Record<string, string>, signal?: AbortSignal): Promise<ReportPage> {
    return (await this.receiveReportPage(params, signal)).page;
  }

  async receiveReportPage(params: Record<string, string>, signal?: AbortSignal): Promise<ReceivedPage> {
    return (await this.openReportPage(params, signal)).read();
  }

  /**
   * Sends a page's request and waits for its status and headers; the body is read and parsed by `read()`.
   * Pages fetched ahead of their turn wait as bytes in socket buffers instead of as parsed objects, which
   * keeps an export's memory down to about one parsed page. Every failure, before or after the headers,
   * counts against the page's one budget of `retries + 1` requests.
   */
  async openReportPage(params: Record<string, string>, signal?: AbortSignal): Promise<OpenPage> {
    const path = `${this.endpointPath}?${new URLSearchParams(params).toString()}`;
    const label = `page ${params.page ?? "1"}`;
    return openWithRetries(this.budget, label, (failures) => this.attempt(path, label, failures, signal), signal);
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /** One try: the page to read for a 200, or what any other answer means, thrown. */
  private async attempt(path: string, label: string, attempt: number, signal?: AbortSignal): Promise<OpenPage> {
    const ticket = await this.pacer?.grant(signal, this.deadline, this.onEvent);
    const response = await this.transport.send(this.origin, path, label, attempt, signal);
    if (ticket) this.pacer?.answered(ticket, response.status, response.headers);
    if (response.status === 200) return { read: async () => pageFrom(await response.body(), this.redactor) };
    const text = (await response.body()).toString("utf8");
    throw statusError(
      { status: response.status, headers: response.headers, text },
      this.base,
      this.redactor,
      this.now(),
    );
  }
}
