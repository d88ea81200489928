/**
 * A small HTTP server on 127.0.0.1 that answers as the test says: for what a service or proxy may do that
 * our `serve` does not (a 400 of its own, data that changes between pages, a redirect, a CONNECT cut off).
 * It counts what it received, and closes after the test file.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { afterEachFile } from "./after-file";

export interface LocalServer {
  url: string;
  /** Requests (and CONNECTs) received so far. */
  count(): number;
  close(): Promise<void>;
}

const open = new Set<LocalServer>();
// After every test file (test/helpers/after-file.ts): every server it started closes after the file.
afterEachFile(async () => {
  await Promise.all([...open].map((server) => server.close()));
});

export async function startLocalServer(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  onConnect?: (socket: Socket, req: IncomingMessage) => void,
  /** Serve HTTPS with this key and certificate. */
  tls?: { key: Buffer; cert: Buffer },
): Promise<LocalServer> {
  let count = 0;
  const counted = (req: IncomingMessage, res: ServerResponse) => {
    count += 1;
    handle(req, res);
  };
  const server = tls ? createTlsServer(tls, counted) : createServer(counted);
  if (onConnect) {
    server.on("connect", (req: IncomingMessage, socket: Socket) => {
      count += 1;
      onConnect(socket, req);
    });
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const local: LocalServer = {
    url: `${tls ? "https" : "http"}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        open.delete(local);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.add(local);
  return local;
}

/** A service that answers every request with `status` and the contract's error body saying `message`. */
export function failingService(status: number, message: string): Promise<LocalServer> {
  return startLocalServer((_req, res) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { status, code: "invalid_parameter", message, param: "from" } }));
  });
}
