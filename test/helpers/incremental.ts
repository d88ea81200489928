/**
 * The demo service (test/helpers/demo-service.ts) for incremental runs, whose data a test restates between
 * runs, and the helpers those tests share: runs with an injected clock, plain single-day exports, the day
 * files of `out/`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { startDemoService } from "./demo-service";
import type { CliResult } from "./spawn-cli";

export const DAY = 86_400_000;
export const at = (day: string) => new Date(`${day}T06:00:00Z`);

export async function newService() {
  const demo = await startDemoService();
  const { service, dir, env, reopen, load } = demo;
  const run = (args: string[], now: Date, extra: Record<string, string> = {}): Promise<CliResult> =>
    demo.run(args, now, extra);
  /** Restates one hour of one ad: its spending and conversions go up. */
  const restate = async (hour: string) => {
    const line = service.lines.find(
      (l) => l.hour === hour && l.keyword_id === undefined && l.advertiser === "Acme Outdoor",
    );
    if (!line) throw new Error(`no line at ${hour}`);
    await load([{ ...line, spending: line.spending + 12.5, conversions: (line.conversions ?? 0) + 3 }]);
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
  const start = (args: string[], now: Date) => demo.start(args, now);
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
