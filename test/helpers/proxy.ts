/**
 * A small HTTP proxy on 127.0.0.1 for tests: CONNECT tunnels (for https://) and absolute-form requests
 * (for http://), every target sent to 127.0.0.1 at the port asked for, whatever its host name, so a test can
 * use a name no resolver knows. Each request line and its headers are logged, as a real proxy would.
 */
import { createServer, request } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterEachFile } from "./after-file";

export interface TestProxy {
  url: string;
  /** One line a request: `CONNECT host:port {headers}` or `GET http://host:port/path {headers}`. */
  log: string[];
  close(): Promise<void>;
}

const proxies = new Set<TestProxy>();
afterEachFile(async () => {
  await Promise.all([...proxies].map((p) => p.close()));
});

export async function startProxy(): Promise<TestProxy> {
  const log: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    log.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
    const target = new URL(req.url ?? "/");
    const upstream = request(
      {
        host: "127.0.0.1",
        port: Number(target.port),
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("connect", (req, socket: Socket, head: Buffer) => {
    log.push(`CONNECT ${req.url} ${JSON.stringify(req.headers)}`);
    const port = Number((req.url ?? "").split(":").pop());
    const upstream = connect(port, "127.0.0.1", () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    sockets.add(upstream);
    sockets.add(socket);
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxy: TestProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        proxies.delete(proxy);
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  proxies.add(proxy);
  return proxy;
}
