/**
 * A real `serve` for incremental runs, whose data a test restates between runs (a load of replacement
 * lines), and the helpers those tests share: runs with an injected clock, plain single-day exports, the
 * day files of `out/`.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { loadNdjsonFile, openForWriting } from "../../src/server";
import type { CliResult } from "./cli";
import type { RefLine } from "./reference";
import { runInProcess, startInProcess } from "./run-cli";
import { serveDatabase, startTestService } from "./serve";
import { tempDir } from "./temp";

export const DAY = 86_400_000;
export const at = (day: string) => new Date(`${day}T06:00:00Z`);

export async function newService() {
  const service = await startTestService({ keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }] });
  const dir = tempDir();
  const env = {
    ADREPORT_CONFIG_DIR: join(dir, "config"),
    ADREPORT_API_KEY: service.keys[0] as string,
    ADREPORT_BASE_URL: service.url,
  };
  const run = (args: string[], now: Date, extra: Record<string, string> = {}): Promise<CliResult> =>
    runInProcess(args, { env: { ...env, ...extra }, now, cwd: dir });
  const port = Number(new URL(service.url).port);
  let server = service.server;
  /** The service again on the same port (its caches empty), with `faults` if given. */
  const reopen = async (faults?: string) => {
    await server.close();
    server = (await serveDatabase(service.dbPath, { ...(faults ? { faults } : {}), serve: { port } })).server;
  };
  /** Loads replacement lines into the service, and restarts it (its caches empty). */
  const load = async (lines: RefLine[]) => {
    const file = join(dir, `restate-${Math.random().toString(16).slice(2)}.ndjson`);
    writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    const db = openForWriting(service.dbPath, { create: false });
    try {
      await loadNdjsonFile(db, file);
    } finally {
      db.close();
    }
    await reopen();
  };
  /** Restates one hour of one ad: its spending and conversions go up. */
  const restate = async (hour: string) => {
    const line = service.lines.find(
      (l) => l.hour === hour && l.keyword_id === undefined && l.advertiser === "Acme Outdoor",
    );
    if (!line) throw new Error(`no line at ${hour}`);
    const changed: RefLine = { ...line, spending: line.spending + 12.5, conversions: (line.conversions ?? 0) + 3 };
    const file = join(dir, `restate-${hour.slice(0, 13)}.ndjson`);
    writeFileSync(file, `${JSON.stringify(changed)}\n`);
    const db = openForWriting(service.dbPath, { create: false });
    try {
      await loadNdjsonFile(db, file);
    } finally {
      db.close();
    }
    await reopen();
  };
  const anHourOf = (day: string) => {
    const line = service.lines.find(
      (l) => l.hour.startsWith(day) && l.keyword_id === undefined && l.advertiser === "Acme Outdoor",
    );
    if (!line) throw new Error(`no data on ${day}`);
    return line.hour;
  };
  /** The same day exported the ordinary way, to a single file. */
  const plainDay = async (day: string, now: Date) => {
    const result = await run(["report", "--dims", "campaign,date", "--from", day, "--to", day, "-o", "-"], now);
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };
  const start = (args: string[], now: Date) => startInProcess(args, { env, now, cwd: dir });
  return { service, dir, env, run, start, restate, load, anHourOf, plainDay, reopen };
}

export const exports = (dir: string) =>
  readdirSync(join(dir, "out"))
    .filter((n) => !n.startsWith("."))
    .sort();
export const temps = (dir: string) => readdirSync(join(dir, "out")).filter((n) => n.endsWith(".tmp"));

export function snapshot(dir: string) {
  return new Map(
    exports(dir).map((name) => {
      const path = join(dir, "out", name);
      return [name, { text: readFileSync(path, "utf8"), mtimeMs: statSync(path).mtimeMs }];
    }),
  );
}
