/** `adreport serve` (`serve start`): listens until SIGINT/SIGTERM, then drains and closes. */
import { UsageError } from "../../core/errors";
import {
  CorsOriginError,
  canonicalEntry,
  corsOrigin,
  databaseLabel,
  FaultSpecError,
  faultHook,
  isPostgresUrl,
  parseFaults,
  parseRateLimit,
  RATE_LIMIT_RULE,
  startServer,
} from "../../server";
import type { Context } from "../context";
import { type DbOptions, operatorVerb } from "./operator";

export interface StartOptions extends DbOptions {
  host: string;
  port: number;
  trustProxy?: string[] | undefined;
  cors?: string[] | undefined;
  cacheRows: number;
  cacheMb: number;
  maxConnections: number;
  headerTimeout: number;
  authFailureLimit: number;
  rateLimit?: string | undefined;
  rateLimitHeaders?: string | undefined;
  shutdownTimeout: number;
  faults?: string | undefined;
  faultsSeed: number;
  quiet?: true | undefined;
  dbPool: number;
}

function trustedProxies(entries: readonly string[]): string[] {
  return entries.map((entry) => {
    const canonical = canonicalEntry(entry);
    if (!canonical) throw new UsageError(`--trust-proxy: ${JSON.stringify(entry)} is not an IP address or CIDR range`);
    return canonical;
  });
}

function corsOrigins(entries: readonly string[]): string[] {
  return entries.map((entry) => {
    try {
      return corsOrigin(entry);
    } catch (error) {
      if (error instanceof CorsOriginError) throw new UsageError(`--cors: ${error.message}`);
      throw error;
    }
  });
}

function faultsOf(options: StartOptions, log: ((line: string) => void) | undefined) {
  if (options.faults === undefined) return undefined;
  try {
    return faultHook(parseFaults(options.faults), options.faultsSeed, log);
  } catch (error) {
    if (error instanceof FaultSpecError) throw new UsageError(`--faults: ${error.message}`);
    throw error;
  }
}

function rateLimitOf(options: StartOptions) {
  const headers = options.rateLimitHeaders;
  if (headers !== undefined && headers !== "ietf" && headers !== "none") {
    throw new UsageError(`--rate-limit-headers: expected ietf or none, not ${JSON.stringify(headers)}`);
  }
  if (options.rateLimit === undefined) {
    if (headers !== undefined) throw new UsageError("--rate-limit-headers: only with --rate-limit N/s or N/min");
    return undefined;
  }
  const limit = parseRateLimit(options.rateLimit);
  if (!limit) throw new UsageError(`--rate-limit: ${RATE_LIMIT_RULE}`);
  return { limit, headers: headers !== "none" };
}

/** A listen failure in the operator's terms: the address is taken, or not this machine's. */
export function listenError(error: unknown, options: Pick<StartOptions, "host" | "port">): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") {
    return new UsageError(`${options.host}:${options.port} is already in use`, {
      hint: "pick another port with --port, or --port 0 for any free one",
    });
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EACCES") {
    return new UsageError(`cannot listen on ${options.host}:${options.port} (${code})`);
  }
  return error;
}

export async function runServe(ctx: Context, options: StartOptions): Promise<void> {
  const trustProxy = trustedProxies(options.trustProxy ?? []);
  const cors = corsOrigins(options.cors ?? []);
  const log = options.quiet ? undefined : (line: string) => ctx.io.err.write(`${line}\n`);
  const faults = faultsOf(options, log);
  const rateLimit = rateLimitOf(options);
  const server = await operatorVerb(async () => {
    try {
      return await startServer({
        dbPath: options.db,
        poolSize: options.dbPool,
        host: options.host,
        port: options.port,
        trustProxy,
        cacheRows: options.cacheRows,
        cacheMb: options.cacheMb,
        maxConnections: options.maxConnections,
        headerTimeoutMs: options.headerTimeout * 1000,
        authFailureLimit: options.authFailureLimit,
        rateLimit,
        shutdownTimeoutMs: options.shutdownTimeout * 1000,
        log,
        notice: (line) => ctx.io.err.write(`adreport serve: ${line}\n`),
        beforeRequest: faults,
        corsOrigins: cors,
        nativeBinding: ctx.sqliteAddon(),
      });
    } catch (error) {
      throw listenError(error, options);
    }
  });
  // The handler is in place before the URL is printed: whoever reads the URL may stop the server at once.
  const stopped = new Promise<void>((resolve) => {
    const stop = ctx.onSignal(() => {
      stop();
      ctx.io.err.write(
        `adreport serve: stopping (requests in flight get up to ${options.shutdownTimeout} s, --shutdown-timeout)\n`,
      );
      void server.close().then(resolve, resolve);
    });
  });
  ctx.io.out.write(`${server.url}\n`);
  ctx.io.err.write(
    `adreport serve: listening on ${server.url} (database ${databaseLabel(options.db)}, ${isPostgresUrl(options.db) ? "reads only" : "read-only"}); Ctrl-C stops\n`,
  );
  await stopped;
}
