/**
 * A small forwarding server in front of a real `serve`, for tests that stop a CLI at a chosen request: it
 * logs each request's `from`, and a hook decides per request to pass it on, never answer it, or answer it
 * and then do something (a signal to the CLI once the answer is out).
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEachFile } from "./after-file";

export type ForwardChoice = "pass" | "hang" | { afterAnswer(): void };

export interface Forwarder {
  url: string;
  /** The `from` of every request, in order. */
  froms: string[];
  hook: ((from: string) => ForwardChoice) | undefined;
  close(): Promise<void>;
}

const forwarders = new Set<Forwarder>();
afterEachFile(async () => {
  await Promise.all([...forwarders].map((f) => f.close()));
});

export async function startForwarder(target: string): Promise<Forwarder> {
  const up = new URL(target);
  const state: Forwarder = { url: "", froms: [], hook: undefined, close: async () => undefined };
  const server = createServer((req, res) => {
    const from = new URL(req.url ?? "/", "http://x").searchParams.get("from") ?? "";
    state.froms.push(from);
    const choice = state.hook?.(from) ?? "pass";
    if (choice === "hang") return;
    const upstream = request(
      { host: up.hostname, port: up.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        if (choice !== "pass") answer.on("end", () => choice.afterAnswer());
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((resolve) => {
      forwarders.delete(state);
      server.closeAllConnections();
      server.close(() => resolve());
    });
  forwarders.add(state);
  return state;
}
