/**
 * A key's pace shared through PostgreSQL (adreport_pace): two processes taking turns of one schedule get
 * none closer than its interval; a hold (a 429's Retry-After) one host tells holds the others; the row is
 * keyed by the key's fingerprint, never the key; a database that cannot be reached leaves the run its own pace.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryPaceLedger } from "../../../../src/core/pace-slot";
import { paceFingerprint } from "../../../../src/state/pace-ledger";
import { PostgresPaceLedger } from "../../../../src/targets/postgres/pace-ledger";
import { queryPostgres, usePostgres } from "../../../helpers/postgres";

const postgres = usePostgres();
const KEY = "ak_live_this-is-the-key-itself";

describe("PostgresPaceLedger", () => {
  it("two processes taking turns at once get turns of one schedule: 40 turns take 39 intervals", async (context) => {
    const url = await postgres.database(context);
    const fingerprint = paceFingerprint("http://127.0.0.1:1", KEY);
    const script = join(import.meta.dirname, "..", "..", "..", "helpers", "pg-pace-ledger-child.ts");
    const children = [0, 1].map(() =>
      spawn(process.execPath, ["--import", "tsx", script, url, fingerprint, "20"], {
        stdio: ["pipe", "pipe", "inherit"],
      }),
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
    expect(times).toHaveLength(40);
    // One schedule of 20 ms turns for both: the 40 turns span at least 39 intervals. Two schedules of their own
    // would take theirs side by side, in about half that. (A gap between two turns is no measure here: each
    // is said in this machine's clock by a difference measured over a round trip, late on a loaded machine;
    // a slow machine only makes the span longer.)
    const span = (times.at(-1) as number) - (times[0] as number);
    expect(span).toBeGreaterThanOrEqual(39 * 20 - 40);
    const rows = await queryPostgres(url, "SELECT * FROM adreport_pace");
    expect(rows.map((row) => row.key)).toEqual([fingerprint]);
    expect(JSON.stringify(rows)).not.toContain(KEY);
  }, 60_000);

  it("a hold one host was told (a 429's Retry-After) holds the others' requests until it ends", async (context) => {
    const url = await postgres.database(context);
    const fingerprint = paceFingerprint("http://127.0.0.1:2", KEY);
    const told = new PostgresPaceLedger(url, fingerprint, 10_000, new MemoryPaceLedger());
    const other = new PostgresPaceLedger(url, fingerprint, 10_000, new MemoryPaceLedger());
    const now = Date.now();
    await told.share({ now, intervalMs: 0, burst: 1, floor: 0, hold: now + 3_000 });
    const turn = await other.take({ now: Date.now(), intervalMs: 10, burst: 1, floor: 0, hold: 0 });
    expect(turn.heldBy).toBe("hold");
    expect(turn.sendAt).toBeGreaterThan(now + 2_900);
  });

  it("a database that cannot be reached: the run keeps its own pace, at once", async () => {
    const alone = new MemoryPaceLedger();
    const ledger = new PostgresPaceLedger("postgres://nobody@127.0.0.1:1/none", "f".repeat(24), 2_000, alone);
    const now = Date.now();
    expect((await ledger.take({ now, intervalMs: 100, burst: 1, floor: 0, hold: 0 })).sendAt).toBe(now);
    // The second is paced by the run's own schedule (the first turn it took).
    expect((await ledger.take({ now, intervalMs: 100, burst: 1, floor: 0, hold: 0 })).sendAt).toBe(now + 100);
  });
});
