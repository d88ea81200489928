/**
 * One try of one request, over undici on the connections of connections.ts (an Agent with keep-alive, a
 * proxy agent when route.ts says so, or a MockAgent in tests): bearer auth, a timeout for the headers and
 * another for the whole body, a bound on a body's size. A failure comes out as what it means for the retry
 * budget (failed-try.ts): a Retriable, or a final error (a certificate that will not change, a body over the
 * bound, an abort).
 */
import { timerDelay } from "../core/wait";
import { Connections } from "./connections";
import { PageTooLargeError } from "./errors";
import { failedTry, type TryPhase } from "./failed-try";
import { followSignal } from "./follow-signal";
import { type HeaderLines, withHeaderLines } from "./raw-headers";
import { BodyTooLargeError, readBoundedBody } from "./read-body";
import type { Recorder, RecordingTicket } from "./record";
import type { RequestEvent } from "./request-event";
import type { ProxyChoice, RouteOptions } from "./route";
import { type Dispatcher, request } from "./undici";
import { untilAborted } from "./until-aborted";

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
  onBytes?: ((count: number) => void) | undefined;
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

export class Transport {
  private readonly connections: Connections;
  /** The proxy requests go through, if any. */
  readonly proxy: ProxyChoice | undefined;
  /** Set once a request was given up on before undici settled it (see until-aborted.ts). */
  private abandoned = false;
  private readonly abandon = (): void => {
    this.abandoned = true;
  };

  constructor(private readonly options: TransportOptions) {
    this.connections = new Connections(options.base, options.dispatcher, options.route);
    this.proxy = this.connections.proxy;
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
    const direct = this.connections.direct ?? (await this.connections.viaProxy());
    // A run already stopped sends nothing more (and counts nothing more).
    if (outer?.aborted) throw outer.reason;
    const controller = new AbortController();
    const unfollow = outer ? followSignal(outer, controller) : () => undefined;
    const signal = controller.signal;
    let phase: TryPhase = "headers";
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
      const timedOut = controller.signal.aborted;
      const failed = failedTry(error, { phase, timedOut, timeoutMs, base, proxy: this.proxy });
      controller.abort();
      recording?.failed(failed.reason);
      onEvent?.({ kind: "failure", method: "GET", url, reason: failed.reason, ms: now() - started, attempt });
      throw failed.error;
    };
    // A timer per phase on the attempt's one controller: undici watches the same signal from the request
    // through the body, and a phase that ends in time must clear its timer (AbortSignal.timeout cannot be).
    const timed = async <T>(work: () => Promise<T>): Promise<T> => {
      const timer = setTimeout(() => controller.abort(), timerDelay(timeoutMs));
      try {
        return await untilAborted(work(), signal, this.abandon);
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
        this.options.onBytes?.(bytes.length);
        return bytes;
      },
    };
  }

  async close(): Promise<void> {
    this.options.recorder?.finish();
    await this.connections.close(this.abandoned);
  }
}
