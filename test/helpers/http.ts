/**
 * Plain HTTP requests for server tests: real sockets, an optional source address, nothing from src/; or,
 * where the connection adds nothing to what a case checks, the same request through fastify's inject.
 */
import { request } from "node:http";
import type { InjectOptions, LightMyRequestResponse } from "fastify";

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

export function httpGet(
  url: string,
  options: { key?: string; headers?: Record<string, string>; localAddress?: string; method?: string } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? "GET", headers, localAddress: options.localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown;
          try {
            json = text === "" ? undefined : JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

type HttpOptions = NonNullable<Parameters<typeof httpGet>[1]>;

/**
 * httpGet's answer, asked of a running server's fastify app through inject: its routes, hooks and
 * serializers, with no socket (the cases that page through hundreds of answers opened a connection each).
 * `localAddress` is the address the request comes from, as with httpGet.
 */
export function injected(server: {
  app: { inject(options: InjectOptions): Promise<LightMyRequestResponse> };
}): (url: string, options?: HttpOptions) => Promise<HttpResult> {
  return async (url, options = {}) => {
    const target = new URL(url);
    const headers: Record<string, string> = { host: target.host, ...options.headers };
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
    const answer = await server.app.inject({
      method: (options.method ?? "GET") as InjectOptions["method"],
      url: `${target.pathname}${target.search}`,
      headers,
      remoteAddress: options.localAddress ?? "127.0.0.1",
    });
    let json: unknown;
    try {
      json = answer.body === "" ? undefined : JSON.parse(answer.body);
    } catch {
      json = undefined;
    }
    // As a socket's answer has them: every value text (inject keeps a number a number).
    const answerHeaders = Object.fromEntries(
      Object.entries(answer.headers).map(([name, value]) => [name, typeof value === "number" ? String(value) : value]),
    );
    return { status: answer.statusCode, headers: answerHeaders, text: answer.body, json };
  };
}
