/**
 * The connections requests go over: the dispatcher passed in (a MockAgent in tests), an Agent of the
 * client's own with keep-alive, or, when route.ts says a proxy carries the requests, a proxy agent made on
 * the first request. Closed at the end, those the client made.
 */
import { type ProxyChoice, proxyFor, type RouteOptions } from "./route";
import { Agent, type Dispatcher, loadEnvHttpProxyAgent, loadTunnelPoolFactory } from "./undici";

const AGENT_OPTIONS = { keepAliveTimeout: 10_000, connections: 16 };

export class Connections {
  /** The dispatcher given, or a direct Agent; undefined when a proxy carries the requests. */
  readonly direct: Dispatcher | undefined;
  /** The proxy requests go through, if any. */
  readonly proxy: ProxyChoice | undefined;
  private proxyDispatcher: Promise<Dispatcher> | undefined;
  private readonly owned: boolean;

  constructor(base: URL, dispatcher: Dispatcher | undefined, route: RouteOptions | undefined) {
    this.owned = dispatcher === undefined;
    this.proxy = dispatcher === undefined ? proxyFor(base, route ?? { env: {} }) : undefined;
    if (this.proxy === undefined) this.direct = dispatcher ?? new Agent(AGENT_OPTIONS);
  }

  /** The proxy agent, made on the first request: its code loads only when a proxy is used. */
  viaProxy(): Promise<Dispatcher> {
    const proxy = this.proxy as ProxyChoice;
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
   * Closes the connections the client made. `abandoned`: a request was given up on while undici still held
   * it, which would keep close() waiting for it: they are destroyed instead.
   */
  async close(abandoned: boolean): Promise<void> {
    if (!this.owned) return;
    const dispatchers = [this.direct, await this.proxyDispatcher?.catch(() => undefined)];
    for (const dispatcher of dispatchers) {
      if (abandoned) await dispatcher?.destroy();
      else await dispatcher?.close();
    }
  }
}
