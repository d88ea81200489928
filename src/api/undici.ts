/**
 * The parts of undici the client uses, its connection pool and its `request` (and, behind a proxy, its
 * proxy agent), loaded on their own.
 * undici's index also loads fetch, WebSocket, caches, cookies and Node's worker_threads, zlib and
 * perf_hooks, none of which a report uses, on every report's start. The paths are pinned by package-lock.json and
 * checked by the build (esbuild fails on a path that moved) and by every test that makes a request.
 */
import { setFlagsFromString } from "node:v8";
import type { Agent as AgentType, Dispatcher, EnvHttpProxyAgent } from "undici";
import requestOn from "undici/lib/api/api-request.js";
import AgentClass from "undici/lib/dispatcher/agent.js";

// undici parses HTTP with llhttp compiled to WebAssembly, on its first connection. V8 recompiles it in the
// background with its optimising compiler, which costs memory and time at exit (V8 waits for the job) for
// no measurable gain on the bodies a report reads (figures in bench/README.md). Set here, where the client
// loads, so that a process that makes no request (help, a refused flag) does not load node:v8 at all.
setFlagsFromString("--liftoff-only");

export type { Dispatcher };
export const Agent: typeof AgentType = AgentClass;

/** undici's `dispatcher.request(options)`, for any dispatcher (an Agent, or a MockAgent in tests). */
export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return requestOn.call(dispatcher, options);
}

/**
 * undici's proxy-aware dispatcher, loaded only when a proxy is to be used (it brings undici's proxy code).
 * Its ProxyAgent opens a CONNECT tunnel with `dispatcher.connect`, one of the methods undici's index adds to
 * every dispatcher; the index is not loaded here, so that one method is added the same way.
 */
export async function loadEnvHttpProxyAgent(): Promise<typeof EnvHttpProxyAgent> {
  const [agent, dispatcher, connect] = await Promise.all([
    import("undici/lib/dispatcher/env-http-proxy-agent.js"),
    import("undici/lib/dispatcher/dispatcher.js"),
    import("undici/lib/api/api-connect.js"),
  ]);
  const prototype = dispatcher.default.prototype as { connect?: unknown };
  prototype.connect ??= connect.default;
  return agent.default;
}

/** A proxy closed the connection before it answered a CONNECT (the tunnel for an https:// service). */
class TunnelClosedError extends Error {
  readonly code = "PROXY_TUNNEL_CLOSED";
  constructor(cause: unknown) {
    super("the proxy closed the connection before it opened a tunnel", { cause });
  }
}

/**
 * The `clientFactory` of a proxy agent: undici's own Pool to the proxy, except that a CONNECT the proxy cut
 * off fails with TunnelClosedError instead of undici's socket error. undici takes a socket error while
 * connecting for one worth reconnecting at once, and reconnects without end (a thousand CONNECTs a second)
 * with the request held in its queue, where neither a timeout nor an abort reaches it; any other error fails
 * the request, which the retry budget then counts.
 */
export async function loadTunnelPoolFactory(): Promise<(origin: URL, options: object) => Dispatcher> {
  const { default: Pool } = await import("undici/lib/dispatcher/pool.js");
  return (origin, options) => {
    const pool = new Pool(origin, options);
    const connect = pool.connect.bind(pool) as (options: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;
    Object.defineProperty(pool, "connect", {
      value: (connectOptions: Dispatcher.ConnectOptions) =>
        connect(connectOptions).catch((error: unknown) => {
          throw (error as { code?: unknown }).code === "UND_ERR_SOCKET" ? new TunnelClosedError(error) : error;
        }),
    });
    return pool;
  };
}
