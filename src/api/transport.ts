/**
 * One try of one request, over undici with a dispatcher passed in (an Agent with keep-alive, a proxy agent
 * when route.ts says so, or a MockAgent in tests): bearer auth, a timeout for the headers and another for
 * the whole body, a bound on a body's size. A failure comes out as what it means for the retry budget: a
 * Retriable, or a final error (a certificate that will not change, a body over the bound, an abort).
 */
import { timerDelay } from "../core/wait";
import { ConnectionError, PageTooLargeError } from "./errors";
import { followSignal } from "./follow-signal";
import { networkFailure } from "./network-errors";
import { type HeaderLines, withHeaderLines } from "./raw-headers";
import { BodyTooLargeError, readBoundedBody } from "./read-body";
import type { Recorder, RecordingTicket } from "./record";
import { Retriable } from "./retry";
import { type ProxyChoice, proxyFor, type RouteOptions } from "./route";
import { Agent, type Dispatcher, loadEnvHttpProxyAgent, loadTunnelPoolFactory, request } from "./undici";

export type RequestEvent =
  /** A request handed to the connection: every one counts, answered or not (a run that ends drops some). */
  | { kind: "sent"; method: string; url: string; attempt: number }
  | { kind: "response"; method: string; url: string; status: number; ms: number; attempt: number }
  | { kind: "failure"; method: string; url: string; reason: string; ms: number; attempt: number };

interface TransportOptions {
  /** The service's base URL, checked (see contract/endpoint.ts). */
  base: URL;
  apiKey: string;
  userAgent: string;
  timeoutMs: number;
  maxPageBytes: number;
  dispatcher?: Dispatcher | undefined;
  route?: RouteOptions | undefined;
  onEvent?: ((event: RequestEvent) => void) | undefined;
  /** Keeps every exchange (`--record`). */
  recorder?: Recorder | undefined;
  now: () => number;
}

/** An answer whose status and headers are in; its body is read, under its own timeout, when asked for. */
interface AnswerHead {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body(): Promise<Buffer>;
}

const AGENT_OPTIONS = { keepAliveTimeout: 10_000, connections: 16 };

export class Transport {
  /** The dispatcher given, or a direct Agent; undefined until first needed when a proxy carries the requests. */
  private dispatcher: Dispatcher | undefined;
  private proxyDispatcher: Promise<Dispatcher> | undefined;
  private readonly ownsDispatcher: boolean;
  /** The proxy requests go through, if any. */
  readonly proxy: ProxyChoice | undefined;
  /** Set once a request was given up on before undici settled it (see untilAborted). */
  private abandoned = false;

  constructor(private readonly options: TransportOptions) {
    this.ownsDispatcher = options.dispatcher === undefined;
    this.proxy = options.dispatcher === undefined ? proxyFor(options.base, options.route ?? { env: {} }) : undefined;
    if (this.proxy === undefined) this.dispatcher = options.dispatcher ?? new Agent(AGENT_OPTIONS);
  }

  /**
   * One GET of `origin` + `path`: resolves once the status and headers are in. The timeout covers the
   * headers from the moment the request is sent, then, separately, the whole body from the moment it is
   * read: a body that trickles in is cut off like one that never comes. `label` names the page in messages.
   */
  async send(origin: string, path: string, label: string, attempt: number, outer?: AbortSignal): Promise<AnswerHead> {
    const { base, timeoutMs, now, onEvent } = this.options;
    const url = `${origin}${path}`;
    const started = now();
    const direct = this.dispatcher ?? (await this.viaProxy(this.proxy as ProxyChoice));
    // A run already stopped sends nothing more (and counts nothing more).
    if (outer?.aborted) throw outer.reason;
    const controller = new AbortController();
    const unfollow = outer ? followSignal(outer, controller) : () => undefined;
    const signal = controller.signal;
    const seconds = timeoutMs / 1000;
    let phase: "headers" | "body" = "headers";
    const headers = {
      authorization: `Bearer ${this.options.apiKey}`,
      accept: "application/json",
      "user-agent": this.options.userAgent,
    };
    const recording: RecordingTicket | undefined = this.options.recorder?.begin("GET", path, headers);
    const fail = (error: unknown): never => {
      unfollow();
      if (outer?.aborted) {
        recording?.failed("interrupted");
        throw outer.reason;
      }
      if (error instanceof BodyTooLargeError) {
        recording?.failed(`the answer was over ${error.limit} bytes (max-page-mb)`);
        controller.abort();
        throw new PageTooLargeError(label, error.limit, error.seen);
      }
      const failure = controller.signal.aborted
        ? {
            reason:
              phase === "headers"
                ? `no answer within ${seconds} s`
                : `the whole answer did not come within ${seconds} s`,
            final: false,
            hint: undefined,
            remedy: undefined,
          }
        : networkFailure(error, base);
      controller.abort();
      recording?.failed(failure.reason);
      onEvent?.({ kind: "failure", method: "GET", url, reason: failure.reason, ms: now() - started, attempt });
      const message = `${phase === "headers" ? "cannot reach" : "lost the answer from"} ${base.host}: ${failure.reason}`;
      const facts = {
        remedy: failure.remedy,
        hint: failure.hint,
        // Behind a proxy, a connection that fails is first of all the proxy's.
        proxy: phase === "headers" && !failure.final ? this.proxy : undefined,
      };
      if (failure.final) throw new ConnectionError(message, facts);
      throw new Retriable(message, undefined, (text) => new ConnectionError(text, facts));
    };
    // A timer per phase on the attempt's one controller: undici watches the same signal from the request
    // through the body, and a phase that ends in time must clear its timer (AbortSignal.timeout cannot be).
    const timed = async <T>(work: () => Promise<T>): Promise<T> => {
      const timer = setTimeout(() => controller.abort(), timerDelay(timeoutMs));
      try {
        return await this.untilAborted(work(), signal);
      } catch (error) {
        return fail(error);
      } finally {
        clearTimeout(timer);
      }
    };
    let headerLines: HeaderLines | undefined;
    const dispatcher = recording
      ? withHeaderLines(direct, (lines) => {
          headerLines = lines;
        })
      : direct;
    onEvent?.({ kind: "sent", method: "GET", url, attempt });
    const response = await timed(() =>
      request(dispatcher, {
        origin,
        path,
        method: "GET",
        signal,
        headers,
      }),
    );
    const status = response.statusCode;
    onEvent?.({ kind: "response", method: "GET", url, status, ms: now() - started, attempt });
    return {
      status,
      headers: response.headers,
      body: async () => {
        phase = "body";
        const bytes = await timed(() =>
          readBoundedBody(response.body, this.options.maxPageBytes, response.headers["content-length"]),
        );
        unfollow();
        recording?.answered(status, headerLines ?? response.headers, bytes);
        return bytes;
      },
    };
  }

  async close(): Promise<void> {
    this.options.recorder?.finish();
    if (!this.ownsDispatcher) return;
    const dispatchers = [this.dispatcher, await this.proxyDispatcher?.catch(() => undefined)];
    for (const dispatcher of dispatchers) {
      // A request given up on while undici still held it would keep close() waiting for it: destroy instead.
      if (this.abandoned) await dispatcher?.destroy();
      else await dispatcher?.close();
    }
  }

  /**
   * `work`, or the signal's reason as soon as it aborts. undici applies an abort only once a request has a
   * connection; one still queued while undici reconnects would otherwise outlast every timeout, the
   * caller's deadline and an interrupt.
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
}
