/**
 * The one HTTP client of the reporting API: undici with a dispatcher passed in (an Agent with keep-alive, a
 * proxy agent when route.ts says so, or a MockAgent in tests), bearer auth, a timeout for the headers and
 * another for the whole body, a bound on a body's size, and one budget of retries per page for network
 * failures, timeouts, answers cut off or unreadable, 429 and 5xx. Statuses become the error kinds of
 * core/errors.ts; the key never reaches a message.
 */
import { isIP } from "node:net";
import { errorBodySchema, type ReportPage, reportPageSchema, type SentRows } from "../contract";
import { AuthError, ForbiddenError, UnavailableError, UsageError } from "../core/errors";
import { type ParsedReportBody, parseReportBody } from "./body/report-body";
import { networkFailure } from "./network-errors";
import { BodyTooLargeError, readBoundedBody } from "./read-body";
import { type BackoffPolicy, backoffMs, DEFAULT_BACKOFF, RETRIABLE_STATUSES, retryAfterMs } from "./retry";
import { type ProxyChoice, proxyFor, type RouteOptions } from "./route";
import { Agent, type Dispatcher, loadEnvHttpProxyAgent, loadTunnelPoolFactory, request } from "./undici";

export type ApiEvent =
  | { kind: "response"; method: string; url: string; status: number; ms: number; attempt: number }
  | { kind: "failure"; method: string; url: string; reason: string; ms: number; attempt: number }
  | { kind: "retry"; reason: string; waitMs: number; retry: number; of: number };

export interface ApiClientOptions {
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
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

const REPORT_PATH = "/v1/report";
const AGENT_OPTIONS = { keepAliveTimeout: 10_000, connections: 16 };

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A page as parsed, with the answer it was parsed from (formatters may copy rows from it). */
export interface ReceivedPage {
  page: ReportPage;
  sent: SentRows;
}

/** A page whose answer has begun: status and headers are in; the body is read when it is this page's turn. */
export interface OpenPage {
  read(): Promise<ReceivedPage>;
}

/** A failure worth another try (within the page's budget), carrying what to tell the user if it was the last. */
class Retriable extends Error {
  constructor(
    message: string,
    readonly waitMs: number | undefined,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** The default bound on one answer's body (the `max-page-mb` setting). */
export const DEFAULT_MAX_PAGE_BYTES = 64 * 1024 * 1024;

export class ReportApi {
  /** The dispatcher given, or a direct Agent; undefined until first needed when a proxy carries the requests. */
  private dispatcher: Dispatcher | undefined;
  private proxyDispatcher: Promise<Dispatcher> | undefined;
  private readonly ownsDispatcher: boolean;
  /** The proxy requests go through, if any (for `--verbose` and for messages). */
  readonly proxy: ProxyChoice | undefined;
  private readonly base: URL;
  /** The report endpoint's origin and path, worked out once: pages differ only in their query. */
  private readonly origin: string;
  private readonly endpointPath: string;
  private readonly backoff: BackoffPolicy;
  private readonly maxPageBytes: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(private readonly options: ApiClientOptions) {
    this.base = parseBaseUrl(options.baseUrl);
    this.ownsDispatcher = options.dispatcher === undefined;
    this.proxy = options.dispatcher === undefined ? proxyFor(this.base, options.route ?? { env: {} }) : undefined;
    if (this.proxy === undefined) this.dispatcher = options.dispatcher ?? new Agent(AGENT_OPTIONS);
    const endpoint = new URL(`${this.base.pathname.replace(/\/$/, "")}${REPORT_PATH}`, this.base);
    this.origin = endpoint.origin;
    this.endpointPath = endpoint.pathname;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.maxPageBytes = options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES;
    this.sleep = options.sleep ?? abortableSleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  /** The address of one page, for messages: never carries the key (it travels in a header). */
  reportUrl(params: Record<string, string>): string {
    return `${this.origin}${this.reportPath(params)}`;
  }

  private reportPath(params: Record<string, string>): string {
    return `${this.endpointPath}?${new URLSearchParams(params).toString()}`;
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
   * keeps an export's memory down to about one parsed page.
   *
   * A page has one budget of `retries + 1` requests, whatever fails: the connection, the headers, the body
   * (cut off, too slow) or its parsing. A body that fails while being read is asked for again from within
   * `read()`, after the same backoff as any other retry, so no kind of failure can start the count anew.
   */
  async openReportPage(params: Record<string, string>, signal?: AbortSignal): Promise<OpenPage> {
    const path = this.reportPath(params);
    const label = `page ${params.page ?? "1"}`;
    let failures = 0;
    const afterFailure = async (error: unknown): Promise<void> => {
      if (signal?.aborted) throw signal.reason;
      if (!(error instanceof Retriable)) throw error;
      failures += 1;
      if (failures > this.options.retries) {
        throw new UnavailableError(
          `${error.message}${this.options.retries > 0 ? ` (${label}: gave up after ${failures} attempts)` : ""}`,
          { hint: error.hint },
        );
      }
      if (error.waitMs !== undefined && error.waitMs > this.backoff.maxRetryAfterMs) {
        throw new UnavailableError(`${error.message}; the service asks to wait ${Math.round(error.waitMs / 1000)} s`);
      }
      // Retry-After is honoured, but never below the backoff: `Retry-After: 0` on every answer must not
      // turn the retries into a burst.
      const waitMs = Math.max(error.waitMs ?? 0, backoffMs(this.backoff, failures - 1, this.random));
      this.options.onEvent?.({
        kind: "retry",
        reason: error.message,
        waitMs,
        retry: failures,
        of: this.options.retries,
      });
      await this.sleep(waitMs, signal);
    };
    const open = async (): Promise<OpenPage> => {
      for (;;) {
        try {
          return await this.attempt(path, label, failures, signal);
        } catch (error) {
          await afterFailure(error);
        }
      }
    };
    let current = await open();
    return {
      read: async () => {
        for (;;) {
          try {
            return await current.read();
          } catch (error) {
            await afterFailure(error);
            current = await open();
          }
        }
      },
    };
  }

  async close(): Promise<void> {
    if (!this.ownsDispatcher) return;
    const dispatchers = [this.dispatcher, await this.proxyDispatcher?.catch(() => undefined)];
    for (const dispatcher of dispatchers) {
      // A request given up on while undici still held it would keep close() waiting for it: destroy instead.
      if (this.abandoned) await dispatcher?.destroy();
      else await dispatcher?.close();
    }
  }

  /** Set once a request was given up on before undici settled it (see untilAborted). */
  private abandoned = false;

  /**
   * `work`, or the signal's reason as soon as it aborts. undici applies an abort only once a request has a
   * connection; one still queued while undici reconnects would otherwise outlast every timeout, --max-time
   * and Ctrl-C.
   */
  private untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) {
      work.catch(() => undefined);
      this.abandoned = true;
      return Promise.reject(signal.reason);
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        this.abandoned = true;
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      work.then(
        (value) => {
          signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  }

  /** The proxy agent, made on the first request: its code loads only when a proxy is used. */
  private viaProxy(proxy: ProxyChoice): Promise<Dispatcher> {
    this.proxyDispatcher ??= Promise.all([loadEnvHttpProxyAgent(), loadTunnelPoolFactory()]).then(
      ([EnvHttpProxyAgent, clientFactory]) =>
        // proxyTunnel false: http:// requests go to the proxy in absolute form, as most egress proxies expect
        // (many allow CONNECT to port 443 only); https:// ones are tunnelled with CONNECT either way.
        new EnvHttpProxyAgent({
          ...AGENT_OPTIONS,
          httpProxy: proxy.url,
          httpsProxy: proxy.url,
          noProxy: "",
          proxyTunnel: false,
          clientFactory,
        }),
    );
    return this.proxyDispatcher;
  }

  /**
   * One try: resolves once the status and headers are in (for a 200) or throws what the answer means. The
   * timeout covers the headers from the moment the request is sent, then, separately, the whole body from
   * the moment it is read: a body that trickles in is cut off like one that never comes.
   */
  private async attempt(path: string, label: string, attempt: number, outer?: AbortSignal): Promise<OpenPage> {
    const url = `${this.origin}${path}`;
    const started = this.now();
    const controller = new AbortController();
    const signal = outer ? AbortSignal.any([outer, controller.signal]) : controller.signal;
    const seconds = this.options.timeoutMs / 1000;
    let phase: "headers" | "body" = "headers";
    const fail = (error: unknown): never => {
      if (outer?.aborted) throw outer.reason;
      if (error instanceof BodyTooLargeError) {
        controller.abort();
        throw this.tooLarge(label, error);
      }
      const failure = controller.signal.aborted
        ? {
            reason:
              phase === "headers"
                ? `no answer within ${seconds} s`
                : `the whole answer did not come within ${seconds} s`,
            final: false,
            hint: undefined,
          }
        : networkFailure(error, this.base);
      controller.abort();
      this.options.onEvent?.({
        kind: "failure",
        method: "GET",
        url,
        reason: failure.reason,
        ms: this.now() - started,
        attempt,
      });
      const message = `${phase === "headers" ? "cannot reach" : "lost the answer from"} ${this.base.host}: ${failure.reason}`;
      // Behind a proxy, a connection that fails is first of all the proxy's.
      const hint =
        this.proxy && phase === "headers" && !failure.final
          ? `requests go through the proxy ${this.proxy.shown} (from ${this.proxy.from}); check it, or exclude this host with NO_PROXY`
          : failure.hint;
      if (failure.final) throw new UnavailableError(message, { hint });
      throw new Retriable(message, undefined, hint);
    };
    const timed = async <T>(work: () => Promise<T>): Promise<T> => {
      const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
      try {
        return await this.untilAborted(work(), signal);
      } catch (error) {
        return fail(error);
      } finally {
        clearTimeout(timer);
      }
    };
    const dispatcher = this.dispatcher ?? (await this.viaProxy(this.proxy as ProxyChoice));
    const response = await timed(() =>
      request(dispatcher, {
        origin: this.origin,
        path,
        method: "GET",
        signal,
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          accept: "application/json",
          "user-agent": this.options.userAgent,
        },
      }),
    );
    const status = response.statusCode;
    this.options.onEvent?.({ kind: "response", method: "GET", url, status, ms: this.now() - started, attempt });
    const body = () => {
      phase = "body";
      return timed(() => readBoundedBody(response.body, this.maxPageBytes, response.headers["content-length"]));
    };
    if (status === 200) return { read: async () => this.parsePage(await body()) };
    const text = (await body()).toString("utf8");
    const detail = this.errorDetail(status, text);
    if (RETRIABLE_STATUSES.has(status)) {
      throw new Retriable(
        `the service answered ${status}: ${detail.message}`,
        retryAfterMs(response.headers["retry-after"], this.now()),
      );
    }
    throw this.statusError(status, detail, response.headers);
  }

  private tooLarge(label: string, error: BodyTooLargeError): UnavailableError {
    const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
    return new UnavailableError(
      `the answer to ${label} is larger than the ${mb(error.limit)} bound (max-page-mb); stopped reading at ${mb(error.seen)}`,
      {
        hint: "a page that large is unusual: lower --page-size, or raise the bound (adreport config set max-page-mb 256)",
      },
    );
  }

  /** A body that is not a report page is worth another request: a proxy may have cut or replaced it. */
  private parsePage(body: Buffer): ReceivedPage {
    let parsed: ParsedReportBody;
    try {
      parsed = parseReportBody(body);
    } catch {
      throw new Retriable(
        `the service's answer is not JSON: ${this.redactedStart(body.toString("utf8", 0, 8192), 80)}`,
        undefined,
      );
    }
    const result = reportPageSchema.safeParse(parsed.value);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new Retriable(
        `the service's answer is not a report page: ${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`,
        undefined,
      );
    }
    return { page: result.data, sent: parsed.sent(result.data.data.length) };
  }

  /** The message and code of an error body of the contract's shape, or something readable from any other. */
  private errorDetail(status: number, text: string): { code: string | undefined; message: string } {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    const parsed = errorBodySchema.safeParse(value);
    if (parsed.success) return { code: parsed.data.error.code, message: this.redact(parsed.data.error.message) };
    const snippet = this.redactedStart(text.slice(0, 8192).replace(/\s+/g, " ").trim(), 120);
    return { code: undefined, message: snippet === "" ? `HTTP ${status}` : snippet };
  }

  private statusError(
    status: number,
    detail: { code: string | undefined; message: string },
    headers: Record<string, string | string[] | undefined>,
  ): Error {
    switch (status) {
      case 400:
        return new UsageError(`the service refused the request: ${detail.message}`);
      case 401:
        return new AuthError(`the service refused the key (401): ${detail.message}`, {
          hint: "the key is missing, invalid or expired: check ADREPORT_API_KEY or the profile (adreport keys test); ask the operator for a new key or a rotation (adreport keys request rotate --account <name>)",
        });
      case 403:
        if (detail.code === "ip_not_allowed" || detail.code === undefined) {
          const seen = addressIn(detail.message) ?? "<this host's static IP>";
          return new ForbiddenError(`the service refused access (403): ${detail.message}`, {
            hint: `this host's outgoing IP is probably not on the key's whitelist: ask the operator to add it (adreport keys request add-ip --account <name> --ip ${seen})`,
          });
        }
        return new ForbiddenError(`the service refused access (403): ${detail.message}`, {
          hint: "the campaign or ad named is not owned by this key's advertiser",
        });
      case 404:
        return new UsageError(`the service has no report endpoint at ${this.base.origin}${this.base.pathname} (404)`, {
          hint: "check the base URL (--base-url, ADREPORT_BASE_URL or the profile)",
        });
      default: {
        const location = headers.location;
        if (status >= 300 && status < 400 && location) {
          return new UsageError(`the service redirects to ${this.redact(String(location))} (${status})`, {
            hint: "use that address as the base URL; adreport does not follow redirects with your key",
          });
        }
        return new UnavailableError(`the service answered ${status}: ${detail.message}`);
      }
    }
  }

  /** `text` with the key, as it is and as a URL carries it, written `***`. */
  private redact(text: string): string {
    const key = this.options.apiKey;
    if (key === "") return text;
    return text.split(key).join("***").split(encodeURIComponent(key)).join("***");
  }

  /**
   * The first `length` characters of `text`, redacted before it is cut: cut first, a key that straddles
   * the cut would no longer match and its first part would be shown.
   */
  private redactedStart(text: string, length: number): string {
    const window = length + 3 * this.options.apiKey.length; // a key starting before `length`, even URL-encoded
    return this.redact(text.slice(0, window)).slice(0, length);
  }
}

/** The first IP address a message names (a service often says which address it saw), if any. */
export function addressIn(message: string): string | undefined {
  return message
    .split(/[\s,;()"'[\]]+/)
    .map((word) => word.replace(/[.:]+$/, ""))
    .find((word) => isIP(word) !== 0);
}

function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`the base URL ${JSON.stringify(text)} is not an absolute http(s) URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`the base URL ${JSON.stringify(text)} is not an http(s) URL`);
  }
  if (url.username || url.password) throw new UsageError("the base URL must not carry a user name or password");
  url.search = "";
  url.hash = "";
  return url;
}
