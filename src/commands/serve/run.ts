/** The behaviour of `adreport serve` and its operator verbs. */

import { formatDateTime, parseInstant } from "../../contract";
import { UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import { writeChunk } from "../../io/write";
import {
  addIps,
  ConflictError,
  canonicalEntry,
  DatabaseError,
  type Db,
  demoFacts,
  FactWriter,
  FaultSpecError,
  faultHook,
  formatLoadLine,
  issueKey,
  KeyAdminError,
  LoadError,
  listKeys,
  loadNdjsonFile,
  openForWriting,
  parseFaults,
  removeIps,
  revokeKey,
  rotateKey,
  startServer,
} from "../../server";
import type { Context } from "../context";
import { openOutput, outputError } from "../shared/output";

interface DbOptions {
  db: string;
}

/** Operator mistakes (a bad line, an unknown key id, a missing file) are bad input: exit 2. */
async function operatorVerb<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (
      error instanceof LoadError ||
      error instanceof KeyAdminError ||
      error instanceof DatabaseError ||
      error instanceof ConflictError
    ) {
      throw new UsageError(error.message);
    }
    throw error;
  }
}

/** Opens the database for an operator verb, runs `work`, and closes it. */
function withDatabase<T>(ctx: Context, path: string, create: boolean, work: (db: Db) => T | Promise<T>): Promise<T> {
  return operatorVerb(async () => {
    const db = openForWriting(path, { create, nativeBinding: ctx.sqliteAddon() });
    try {
      return await work(db);
    } finally {
      db.close();
    }
  });
}

function nowSeconds(ctx: Context): number {
  return Math.floor(ctx.now().getTime() / 1000);
}

export async function runServe(
  ctx: Context,
  options: DbOptions & {
    host: string;
    port: number;
    trustProxy?: string[];
    cacheRows: number;
    cacheMb: number;
    maxConnections: number;
    headerTimeout: number;
    authFailureLimit: number;
    shutdownTimeout: number;
    faults?: string;
    faultsSeed?: number;
    quiet?: boolean;
  },
): Promise<void> {
  const trustProxy = (options.trustProxy ?? []).map((entry) => {
    const canonical = canonicalEntry(entry);
    if (!canonical) throw new UsageError(`--trust-proxy: ${JSON.stringify(entry)} is not an IP address or CIDR range`);
    return canonical;
  });
  const log = options.quiet ? undefined : (line: string) => ctx.io.err.write(`${line}\n`);
  let faults: ReturnType<typeof faultHook> | undefined;
  if (options.faults !== undefined) {
    try {
      faults = faultHook(parseFaults(options.faults), options.faultsSeed ?? 1, log);
    } catch (error) {
      if (error instanceof FaultSpecError) throw new UsageError(`--faults: ${error.message}`);
      throw error;
    }
  }
  const server = await operatorVerb(async () => {
    try {
      return await startServer({
        dbPath: options.db,
        host: options.host,
        port: options.port,
        trustProxy,
        cacheRows: options.cacheRows,
        cacheMb: options.cacheMb,
        maxConnections: options.maxConnections,
        headerTimeoutMs: options.headerTimeout * 1000,
        authFailureLimit: options.authFailureLimit,
        shutdownTimeoutMs: options.shutdownTimeout * 1000,
        log,
        notice: (line) => ctx.io.err.write(`adreport serve: ${line}\n`),
        beforeRequest: faults,
        nativeBinding: ctx.sqliteAddon(),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE") {
        throw new UsageError(`${options.host}:${options.port} is already in use`, {
          hint: "pick another port with --port, or --port 0 for any free one",
        });
      }
      if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EACCES") {
        throw new UsageError(`cannot listen on ${options.host}:${options.port} (${code})`);
      }
      throw error;
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
  ctx.io.err.write(`adreport serve: listening on ${server.url} (database ${options.db}, read-only); Ctrl-C stops\n`);
  await stopped;
}

export async function runInit(ctx: Context, options: DbOptions): Promise<void> {
  await withDatabase(ctx, options.db, true, () => undefined);
  ctx.io.err.write(`adreport serve: ${options.db} is ready\n`);
}

export async function runLoad(ctx: Context, files: string[], options: DbOptions): Promise<void> {
  await withDatabase(ctx, options.db, false, async (db) => {
    for (const file of files) {
      const started = performance.now();
      const result = await loadNdjsonFile(db, file);
      const seconds = (performance.now() - started) / 1000;
      const lines = result.adHours + result.keywordHours;
      ctx.io.err.write(
        `adreport serve: loaded ${file}: ${result.adHours} ad hours, ${result.keywordHours} keyword hours (${Math.round(lines / Math.max(seconds, 1e-3))} lines/s)\n`,
      );
    }
  });
}

export async function runDemo(
  ctx: Context,
  options: DbOptions & {
    seed: number;
    days: number;
    end: string;
    advertisers: number;
    campaigns: number;
    ads: number;
    keywords: number;
    activity: number;
    ndjson?: string;
  },
): Promise<void> {
  const end = /^\d{4}-\d{2}-\d{2}$/.test(options.end) ? parseInstant(options.end, "from") : undefined;
  if (!end) throw new UsageError(`--end: ${JSON.stringify(options.end)} is not a date (YYYY-MM-DD)`);
  const facts = demoFacts({
    seed: options.seed,
    days: options.days,
    end: end.sec,
    advertisers: options.advertisers,
    campaignsPerAdvertiser: options.campaigns,
    adsPerCampaign: options.ads,
    keywordsPerAd: options.keywords,
    activity: options.activity,
  });
  if (options.ndjson !== undefined) {
    const sink = await openOutput(ctx, options.ndjson);
    try {
      let batch = "";
      for (const line of facts) {
        batch += `${formatLoadLine(line)}\n`;
        if (batch.length > 1 << 16) {
          await writeChunk(sink.stream, batch);
          batch = "";
        }
      }
      await writeChunk(sink.stream, batch);
      await sink.commit();
    } catch (error) {
      const failed = outputError(error, sink);
      await sink.abort();
      throw failed ?? error;
    }
    return;
  }
  await withDatabase(ctx, options.db, true, (db) => {
    const writer = new FactWriter(db);
    let count = 0;
    db.transaction(() => {
      for (const line of facts) {
        if (line.kind === "ad") writer.writeAdHour(line.fact);
        else writer.writeKeywordHour(line.fact);
        count += 1;
      }
      writer.finish();
    })();
    const first = formatDateTime(end.sec - options.days * 86_400);
    ctx.io.err.write(
      `adreport serve: demo data in ${options.db}: ${count} hourly rows from ${first} to ${formatDateTime(end.sec - 3600)}\n`,
    );
  });
}

export async function runKeyIssue(
  ctx: Context,
  options: DbOptions & { advertiser: string; ip?: string[]; expires?: string; expiresIn?: number },
): Promise<void> {
  const now = nowSeconds(ctx);
  let expiresAt: number | undefined;
  if (options.expires !== undefined && options.expiresIn !== undefined) {
    throw new UsageError("give --expires or --expires-in, not both");
  }
  if (options.expires !== undefined) {
    const parsed = parseInstant(options.expires, "to");
    if (!parsed)
      throw new UsageError(`--expires: ${JSON.stringify(options.expires)} is not an ISO 8601 date-time or date`);
    expiresAt = parsed.sec;
  }
  if (options.expiresIn !== undefined) expiresAt = now + options.expiresIn * 86_400;
  const ips = options.ip ?? [];
  const issued = await withDatabase(ctx, options.db, false, (db) => {
    return issueKey(db, { advertiser: options.advertiser, ips, expiresAt, now });
  });
  ctx.io.out.write(`${issued.key}\n`);
  ctx.io.err.write(
    `adreport serve: key #${issued.id} for ${printable(JSON.stringify(issued.advertiser))}, whitelist ${issued.ips.join(", ") || "(empty: no address may use it yet)"}, expires ${issued.expiresAt === undefined ? "never" : formatDateTime(issued.expiresAt)}\n` +
      "The key is shown only this once: store it now (for example: adreport keys add <profile> --stdin).\n",
  );
}

export async function runKeyRotate(ctx: Context, id: number, options: DbOptions): Promise<void> {
  const issued = await withDatabase(ctx, options.db, false, (db) => {
    return rotateKey(db, id, nowSeconds(ctx));
  });
  ctx.io.out.write(`${issued.key}\n`);
  ctx.io.err.write(
    `adreport serve: key #${id} revoked and replaced by key #${issued.id}; the new key is shown only this once\n`,
  );
}

export async function runKeyRevoke(ctx: Context, id: number, options: DbOptions): Promise<void> {
  await withDatabase(ctx, options.db, false, (db) => {
    revokeKey(db, id, nowSeconds(ctx));
  });
  ctx.io.err.write(`adreport serve: key #${id} revoked\n`);
}

export async function runKeyList(ctx: Context, options: DbOptions & { json?: boolean }): Promise<void> {
  const keys = await withDatabase(ctx, options.db, false, (db) => {
    return listKeys(db, nowSeconds(ctx));
  });
  if (options.json) {
    for (const k of keys) ctx.io.out.write(`${JSON.stringify(k)}\n`);
    return;
  }
  const { default: Table } = await import("cli-table3");
  const table = new Table({
    head: ["id", "advertiser", "key", "status", "created", "expires", "whitelist"],
    style: { head: [], border: [] },
  });
  for (const k of keys) {
    // Advertiser names come from load files; like the report's table, this one shows them, never obeys them.
    table.push([
      k.id,
      printable(k.advertiser),
      k.hint,
      k.replacedBy === undefined ? k.status : `${k.status} (→ #${k.replacedBy})`,
      formatDateTime(k.createdAt),
      k.expiresAt === undefined ? "never" : formatDateTime(k.expiresAt),
      k.ips.join(" ") || "(none)",
    ]);
  }
  ctx.io.out.write(`${table.toString()}\n`);
}

export async function runIp(
  ctx: Context,
  action: "add" | "remove",
  id: number,
  addresses: string[],
  options: DbOptions,
): Promise<void> {
  const ips = await withDatabase(ctx, options.db, false, (db) => {
    return action === "add" ? addIps(db, id, addresses) : removeIps(db, id, addresses);
  });
  ctx.io.err.write(`adreport serve: key #${id} whitelist: ${ips.join(", ") || "(empty)"}\n`);
}
