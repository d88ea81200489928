/**
 * Whether requests to the service go through an HTTP proxy, decided once for the run: the `proxy` setting,
 * else HTTPS_PROXY / HTTP_PROXY (lower or upper case) with NO_PROXY, the conventions of curl and undici's
 * EnvHttpProxyAgent, which carries the requests. A loopback address (a local `adreport serve`) is never
 * proxied. The decision is made here rather than left to the agent so that the caller can say what happens.
 */
import { isIP } from "node:net";
import { UsageError } from "../core/errors";
import { maskedUrl } from "../core/masked-url";

export interface ProxyChoice {
  /** The proxy's URL, as the agent needs it (credentials included). */
  url: string;
  /** Where it came from: `the proxy setting`, `HTTPS_PROXY`, ... */
  from: string;
  /** The URL with any password masked, for messages. */
  shown: string;
}

export interface RouteOptions {
  /** The `proxy` setting: a URL, `direct` for none, or undefined to follow the environment. */
  setting?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
}

function firstSet(env: RouteOptions["env"], names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim() !== "") return { name, value: value.trim() };
  }
  return undefined;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1" || host.startsWith("::ffff:127.");
}

/** NO_PROXY as curl and undici read it: `*`, or names (a leading `.` or `*.` allowed) with an optional port. */
function bypassed(url: URL, noProxy: string): boolean {
  const value = noProxy.trim();
  if (value === "*") return true;
  const hostname = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  for (const entry of value.split(/[,\s]+/)) {
    if (entry === "") continue;
    const match = /^(.+):(\d+)$/.exec(entry);
    const name = (match ? (match[1] as string) : entry)
      .replace(/^\*?\./, "")
      .replace(/^\[|\]$/g, "")
      .toLowerCase();
    if (match && Number(match[2]) !== port) continue;
    if (hostname === name || hostname.endsWith(`.${name}`)) return true;
  }
  return false;
}

/**
 * The proxy's URL, read as curl reads it: `proxy.corp:3128` or `user:pass@proxy.corp:3128` without a scheme
 * is http://. Anything else than an http(s) URL is refused here, before any message could show it raw.
 */
function proxyUrl(value: string, from: string): URL {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") {
    const scheme = url === undefined ? "" : ` (${url.protocol}// is not supported)`;
    throw new UsageError(`${from} is not an http:// or https:// proxy URL${scheme}`, {
      hint: "write it as http://host:port, with user:password@ before the host if the proxy asks for them",
    });
  }
  return url;
}

/** The proxy requests to `base` go through, or undefined for a direct connection. */
export function proxyFor(base: URL, options: RouteOptions): ProxyChoice | undefined {
  const { setting, env } = options;
  if (setting === "direct" || isLoopback(base.hostname)) return undefined;
  let chosen: { name: string; value: string } | undefined;
  if (setting !== undefined) chosen = { name: "the proxy setting", value: setting };
  else {
    const http = firstSet(env, ["http_proxy", "HTTP_PROXY"]);
    chosen = base.protocol === "https:" ? (firstSet(env, ["https_proxy", "HTTPS_PROXY"]) ?? http) : http;
  }
  if (chosen === undefined) return undefined;
  const noProxy = firstSet(env, ["no_proxy", "NO_PROXY"]);
  if (noProxy !== undefined && bypassed(base, noProxy.value)) return undefined;
  const url = proxyUrl(chosen.value, chosen.name);
  return { url: url.href.replace(/\/$/, ""), from: chosen.name, shown: maskedUrl(url).href.replace(/\/$/, "") };
}
