/** Opens the database read-only, builds the app and listens; `close()` drains and closes both. */
import type { FastifyInstance } from "fastify";
import { type NativeBinding, openForReading } from "../db/schema";
import { ReportStore } from "../db/store";
import { type AppOptions, buildApp } from "./app";

export interface ServeOptions {
  dbPath: string;
  host: string;
  port: number;
  trustProxy: readonly string[];
  cacheRows: number;
  log?: ((line: string) => void) | undefined;
  beforeRequest?: AppOptions["beforeRequest"];
  nowSeconds?: () => number;
  nativeBinding?: NativeBinding;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const db = openForReading(options.dbPath, options.nativeBinding);
  const app = buildApp({
    store: new ReportStore(db, { cacheRows: options.cacheRows }),
    trustProxy: options.trustProxy,
    nowSeconds: options.nowSeconds ?? (() => Math.floor(Date.now() / 1000)),
    log: options.log,
    beforeRequest: options.beforeRequest,
  });
  app.addHook("onClose", async () => {
    db.close();
  });
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return { url: `http://${host}:${port}`, app, close: () => app.close() };
}
