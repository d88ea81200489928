/**
 * The pace shared by processes of one key through a file: named without the key, one schedule for two
 * pacers in one process, and for two real processes reserving at once.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Pacer } from "../../../src/api/pace";
import { FilePaceLedger, paceLedgerPath } from "../../../src/state/pace-ledger";

const KEY = `adr_${"s".repeat(43)}`;
const folder = mkdtempSync(join(tmpdir(), "adreport-pace-ledger-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("paceLedgerPath", () => {
  it("names the file by a hash of base URL and key: never the key, one file per pair", () => {
    const path = paceLedgerPath(folder, "https://reports.example.com", KEY);
    expect(path).not.toContain(KEY);
    expect(path).not.toContain(KEY.slice(4, 20));
    expect(path).toBe(paceLedgerPath(folder, "https://reports.example.com", KEY));
    expect(path).not.toBe(paceLedgerPath(folder, "https://reports.example.com", `${KEY}x`));
    expect(path).not.toBe(paceLedgerPath(folder, "https://other.example.com", KEY));
  });
});

describe("FilePaceLedger", () => {
  it("two pacers with their own ledger objects on one file keep to one pace between them", async () => {
    const file = join(folder, "two-pacers.json");
    // Time moves only to the earliest wake-up of the two, once both are asleep: their sleeps overlap as real
    // ones would.
    const clock = { t: Date.parse("2026-11-25T12:00:00Z") };
    const asleep: Array<{ at: number; wake: () => void }> = [];
    const sleep = (ms: number) =>
      new Promise<void>((wake) => {
        asleep.push({ at: clock.t + ms, wake });
        setImmediate(() => {
          asleep.sort((x, y) => x.at - y.at);
          const first = asleep.shift();
          if (!first) return;
          clock.t = Math.max(clock.t, first.at);
          first.wake();
        });
      });
    const [a, b] = [0, 1].map(() => new Pacer({ ledger: new FilePaceLedger(file), now: () => clock.t, sleep })) as [
      Pacer,
      Pacer,
    ];
    const policy = { "ratelimit-policy": '"d";q=10;w=1', ratelimit: '"d";r=0;t=1' };
    a.answered(await a.grant(), 200, policy);
    b.answered(await b.grant(), 200, policy);
    const sent: number[] = [];
    await Promise.all(
      [a, b].map(async (pacer) => {
        for (let i = 0; i < 10; i += 1) {
          await pacer.grant();
          sent.push(clock.t);
        }
      }),
    );
    sent.sort((x, y) => x - y);
    const most = Math.max(...sent.map((t) => sent.filter((u) => u >= t && u < t + 1000).length));
    expect(most).toBeLessThanOrEqual(10);
    expect(readdirSync(folder).filter((name) => name.endsWith(".lock"))).toEqual([]);
  });

  it("two processes reserving at once get slots of one schedule, none closer than the interval", async () => {
    const file = join(folder, "two-processes.json");
    const script = join(__dirname, "..", "..", "helpers", "pace-ledger-child.ts");
    const children = [0, 1].map(() =>
      spawn(process.execPath, ["--import", "tsx", script, file, "25"], { stdio: ["pipe", "pipe", "inherit"] }),
    );
    const outputs = children.map((child) => {
      const output = { text: "" };
      child.stdout.on("data", (chunk: Buffer) => {
        output.text += chunk.toString();
      });
      return output;
    });
    const exits = children.map((child) => new Promise((resolve) => child.on("exit", resolve)));
    while (!outputs.every((o) => o.text.startsWith("ready\n"))) await new Promise((r) => setTimeout(r, 20));
    for (const child of children) child.stdin.write("go\n");
    expect(await Promise.all(exits)).toEqual([0, 0]);
    const times = outputs.flatMap((o) => JSON.parse(o.text.slice("ready\n".length)) as number[]).sort((x, y) => x - y);
    expect(times).toHaveLength(50);
    for (let i = 1; i < times.length; i += 1) {
      expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(20);
    }
  }, 60_000);
});

describe("FilePaceLedger after a run killed while holding the lock", () => {
  it("a lock dated in the future (the clock set back since) is stale too: no request waits for it", async () => {
    const own = join(folder, "own");
    mkdirSync(own, { mode: 0o700 });
    const file = join(own, "future-lock.json");
    writeFileSync(`${file}.lock`, "");
    const hourAhead = new Date(Date.now() + 3_600_000);
    utimesSync(`${file}.lock`, hourAhead, hourAhead);
    const ledger = new FilePaceLedger(file);
    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      const now = Date.now();
      await ledger.take({ now, intervalMs: 1, burst: 100, floor: 0, hold: 0 });
      expect(performance.now() - started, `request ${i + 1}`).toBeLessThan(500);
    }
    expect(readdirSync(own)).toEqual(["future-lock.json"]);
  });
});

describe("FilePaceLedger in a folder another user could write", () => {
  it("paces alone: a schedule planted there does not hold the run back", async () => {
    const shared = join(folder, "shared");
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777);
    const file = join(shared, "planted.json");
    const now = Date.parse("2026-11-25T12:00:00Z");
    // Four minutes ahead: a hold a real Retry-After could have left there.
    writeFileSync(file, `${JSON.stringify({ tat: 0, every: 50, burst: 1, hold: now + 240_000 })}\n`);
    const request = { now, intervalMs: 50, burst: 1, floor: 0, hold: 0 };
    expect((await new FilePaceLedger(file).take(request)).sendAt).toBe(now);
    chmodSync(shared, 0o700);
    expect((await new FilePaceLedger(file).take(request)).sendAt).toBe(now + 240_000);
  });
});
