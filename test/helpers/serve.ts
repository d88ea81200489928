/**
 * A real `serve` for tests: a temporary SQLite file loaded from NDJSON through the operator code, keys
 * issued through it, and the server listening on a real port of this machine.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll } from "vitest";
import {
  type DemoOptions,
  demoFacts,
  formatLoadLine,
  issueKey,
  loadNdjsonFile,
  openForWriting,
  type RunningServer,
  revokeKey,
  type ServeOptions,
  startServer,
} from "../../src/server";
import type { RefLine } from "./reference";
import { tempDir } from "./temp";

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
// Registered when a test file imports this helper: every server it started closes after the file.
afterAll(async () => {
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
  dbPath: string;
  lines: RefLine[];
  keys: string[];
  keyIds: number[];
  server: RunningServer;
}

/** Writes the demo facts as an NDJSON file and returns its path and parsed lines. */
export function demoNdjson(dir: string, options: DemoOptions = SMALL_DEMO): { path: string; lines: RefLine[] } {
  const text = [...demoFacts(options)].map(formatLoadLine);
  const path = join(dir, "demo.ndjson");
  writeFileSync(path, `${text.join("\n")}\n`);
  return { path, lines: text.map((t) => JSON.parse(t) as RefLine) };
}

export async function startTestService(
  options: { keys: KeySpec[]; demo?: DemoOptions; host?: string; serve?: Partial<ServeOptions> } = { keys: [] },
): Promise<TestService> {
  const dir = tempDir();
  const dbPath = join(dir, "test.db");
  const { path, lines } = demoNdjson(dir, options.demo ?? SMALL_DEMO);
  const db = openForWriting(dbPath, { create: true });
  await loadNdjsonFile(db, path);
  const keys: string[] = [];
  const keyIds: number[] = [];
  const now = Math.floor(Date.now() / 1000);
  for (const spec of options.keys) {
    const issued = issueKey(db, { advertiser: spec.advertiser, ips: spec.ips, expiresAt: spec.expiresAt, now });
    if (spec.revoked) revokeKey(db, issued.id, now);
    keys.push(issued.key);
    keyIds.push(issued.id);
  }
  db.close();
  const server = await startServer({
    dbPath,
    host: options.host ?? "127.0.0.1",
    port: 0,
    trustProxy: [],
    cacheRows: 100_000,
    ...options.serve,
  });
  servers.add(server);
  return { url: server.url, dbPath, lines, keys, keyIds, server };
}
