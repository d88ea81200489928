/**
 * A real `serve` for tests: a temporary SQLite file loaded from NDJSON through the operator code, keys
 * issued through it, and the server listening on a real port of this machine.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type DemoOptions,
  demoFacts,
  faultHook,
  formatLoadLine,
  loadNdjsonInto,
  openOperatorStore,
  parseFaults,
  type RunningServer,
  type ServeOptions,
  startServer,
} from "../../src/server";
import { afterEachFile } from "./after-file";
import { sqliteBackend, type TestBackend } from "./backends";
import type { RefLine } from "./reference";
import { tempDir, workerTempDir } from "./temp";

export const SMALL_DEMO: DemoOptions = {
  seed: 7,
  days: 40,
  end: Date.UTC(2026, 10, 1) / 1000,
  advertisers: 2,
  campaignsPerAdvertiser: 2,
  adsPerCampaign: 2,
  keywordsPerAd: 2,
  activity: 0.5,
};

const servers = new Set<RunningServer>();
// After every test file (test/helpers/after-file.ts): every server it started closes after the file.
afterEachFile(async () => {
  await Promise.all([...servers].map((server) => server.close()));
  servers.clear();
});

export interface KeySpec {
  advertiser: string;
  ips: string[];
  expiresAt?: number;
  revoked?: boolean;
}

export interface TestService {
  url: string;
  /** The SQLite file or the PostgreSQL URL. */
  dbPath: string;
  lines: RefLine[];
  keys: string[];
  keyIds: number[];
  server: RunningServer;
  /** The access log, one line a request (fault lines included), as `serve` prints it. */
  accessLog: string[];
}

/** How a server over the test database listens: `faults` is a `serve --faults` spec (e.g. "503:1"). */
export interface ListenOptions {
  host?: string;
  faults?: string;
  serve?: Partial<ServeOptions>;
}

/** Writes the demo facts as an NDJSON file and returns its path and parsed lines. */
export function demoNdjson(dir: string, options: DemoOptions = SMALL_DEMO): { path: string; lines: RefLine[] } {
  const text = [...demoFacts(options)].map(formatLoadLine);
  const path = join(dir, "demo.ndjson");
  writeFileSync(path, `${text.join("\n")}\n`);
  return { path, lines: text.map((t) => JSON.parse(t) as RefLine) };
}

/**
 * The demo data of `demo` loaded into a database of `backend`, once per worker process: each service gets a
 * copy (a copied file, `CREATE DATABASE ... TEMPLATE`), as loaded through the operator code. Generating and
 * loading the demo took a third of a second a service, and the server tests start about a hundred.
 */
const loaded = new Map<string, Promise<{ template: string; text: string }>>();

function loadedDemo(backend: TestBackend, demo: DemoOptions): Promise<{ template: string; text: string }> {
  const key = JSON.stringify([backend.name, demo]);
  let done = loaded.get(key);
  if (done === undefined) {
    done = (async () => {
      const dir = workerTempDir();
      const text = [...demoFacts(demo)].map(formatLoadLine).join("\n");
      const path = join(dir, `demo-${loaded.size}.ndjson`);
      writeFileSync(path, `${text}\n`);
      const template = await backend.newTemplate();
      const store = await openOperatorStore(template, { create: true });
      try {
        await loadNdjsonInto(store, path);
      } finally {
        await store.close();
      }
      return { template, text };
    })();
    loaded.set(key, done);
    // A load that failed is tried again by the next service, not handed to every one after it.
    done.catch(() => loaded.delete(key));
  }
  return done;
}

/** `backend` says where the database goes: a new SQLite file in a temporary folder unless given. */
export async function startTestService(
  options: { keys: KeySpec[]; demo?: DemoOptions; backend?: TestBackend } & ListenOptions = { keys: [] },
): Promise<TestService> {
  const backend = options.backend ?? sqliteBackend();
  const demo = await loadedDemo(backend, options.demo ?? SMALL_DEMO);
  const dbPath = await backend.copyOf(demo.template);
  const lines = demo.text.split("\n").map((line) => JSON.parse(line) as RefLine);
  const store = await openOperatorStore(dbPath, { create: true });
  const keys: string[] = [];
  const keyIds: number[] = [];
  try {
    const now = Math.floor(Date.now() / 1000);
    for (const spec of options.keys) {
      const issued = await store.issueKey({
        advertiser: spec.advertiser,
        ips: spec.ips,
        expiresAt: spec.expiresAt,
        now,
      });
      if (spec.revoked) await store.revokeKey(issued.id, now);
      keys.push(issued.key);
      keyIds.push(issued.id);
    }
  } finally {
    await store.close();
  }
  const listening = await serveDatabase(dbPath, options);
  return { ...listening, dbPath, lines, keys, keyIds };
}

/** Another server over the same database, e.g. one that answers with faults while the first does not. */
export async function serveDatabase(
  dbPath: string,
  options: ListenOptions = {},
): Promise<{ url: string; server: RunningServer; accessLog: string[] }> {
  const accessLog: string[] = [];
  const log = (line: string) => accessLog.push(line);
  const server = await startServer({
    dbPath,
    host: options.host ?? "127.0.0.1",
    port: 0,
    trustProxy: [],
    cacheRows: 100_000,
    log,
    beforeRequest: options.faults === undefined ? undefined : faultHook(parseFaults(options.faults), 1, log),
    ...options.serve,
  });
  servers.add(server);
  return { url: server.url, server, accessLog };
}

/**
 * A service over `lines` alone (no demo data), loaded and keyed through the `serve` operator commands as an
 * operator would (init, load, key issue, in this process); its one key is Acme Outdoor's, from 127.0.0.1.
 */
export async function serveLinesWithKey(name: string, lines: readonly object[]): Promise<{ url: string; key: string }> {
  const dir = tempDir();
  const db = join(dir, `${name}.db`);
  const load = join(dir, `${name}.ndjson`);
  writeFileSync(load, lines.map((line) => JSON.stringify(line)).join("\n"));
  const issue = ["serve", "key", "issue", "--db", db, "--advertiser", "Acme Outdoor", "--ip", "127.0.0.1"];
  // Loaded here only: the whole CLI is more than the server tests that import this file need.
  const { runInProcess } = await import("./run-cli-in-process");
  let key = "";
  for (const args of [["serve", "init", "--db", db], ["serve", "load", "--db", db, load], issue]) {
    const result = await runInProcess(args);
    if (result.code !== 0) throw new Error(result.stderr);
    key = result.stdout.trim();
  }
  const { url } = await serveDatabase(db);
  return { url, key };
}
