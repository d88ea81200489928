/**
 * One report over several accounts (fanOut): each account's plan run by the engine against a MockAgent
 * that answers each key with its own rows, into one shared output in profile order or a file each; an
 * account that fails, --allow-partial, and a signal that stops them all.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Context } from "../../../../src/commands/context";
import { exitCodeOf } from "../../../../src/core/errors";
import { fanOut } from "../../../../src/engine/accounts/fan-out";
import { runPlan } from "../../../../src/engine/run/run";
import { configDirWith } from "../../../helpers/config";
import { type MemoryContext, memoryContext } from "../../../helpers/memory-context";
import { mockAgent, ORIGIN, rowsOf } from "../../../helpers/mock-api";
import { recordingEvents } from "../../../helpers/recorded-events";
import { accountsOfArgv } from "../../../helpers/report-plan";
import { ndjsonRows } from "../../../helpers/sinks";
import { tempDir } from "../../../helpers/temp";

const ACME = `adr_${"a".repeat(43)}`;
const GLOBEX = `adr_${"g".repeat(43)}`;
const BOTH = ["--profiles", "acme,globex", "--dims", "campaign", "--metrics", "views,clicks"];

type Mock = ReturnType<typeof mockAgent>;

/**
 * Answers `key` with `rows` rows (campaigns from `first`), or with `status` when given; `onRequest` is
 * called as a request comes (a test's signal), and `delayMs` holds the answer back.
 */
function serveKey(
  mock: Mock,
  key: string,
  answer: { rows: number; first: number } | { status: number },
  held: { onRequest?: () => void; delayMs?: number } = {},
) {
  const interceptor = mock.pool
    .intercept({ path: (p) => p.startsWith("/v1/report"), method: "GET", headers: { authorization: `Bearer ${key}` } })
    .reply((opts) => {
      mock.record(opts);
      if (held.onRequest) setImmediate(held.onRequest);
      if ("status" in answer) {
        const error = { error: { status: answer.status, code: "invalid_key", message: "no" } };
        return { statusCode: answer.status, data: JSON.stringify(error) };
      }
      const rows = rowsOf(answer.rows).map((row, i) => ({
        ...row,
        dimensions: { campaign_id: answer.first + i, name: `Campaign ${answer.first + i}` },
      }));
      const meta = { granularity: "total", dimensions: ["campaign"], metrics: ["views", "clicks"] };
      const page = { ...meta, total: rows.length, page: 1, limit: 1000, has_more: false };
      return {
        statusCode: 200,
        data: JSON.stringify({ meta: page, data: rows }),
        responseOptions: { headers: { "content-type": "application/json" } },
      };
    });
  if (held.delayMs !== undefined) interceptor.delay(held.delayMs);
  interceptor.persist();
}

/** The accounts' run as `report --profiles` makes it, with every account's events and failure kept. */
async function runAccounts(
  mock: Mock,
  argv: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; during?: (memory: MemoryContext) => void } = {},
) {
  const cwd = options.cwd ?? tempDir();
  const profile = { "base-url": ORIGIN };
  const config = configDirWith(
    {},
    { acme: { ...profile, "api-key": ACME }, globex: { ...profile, "api-key": GLOBEX } },
  );
  const memory = memoryContext({ env: { ADREPORT_CONFIG_DIR: config, ...options.env }, dispatcher: mock.agent, cwd });
  options.during?.(memory);
  const accounts = await accountsOfArgv(memory.ctx, argv);
  const run = recordingEvents();
  const each = new Map<string, ReturnType<typeof recordingEvents>>();
  const failed = new Map<string, unknown>();
  const error = await fanOut(memory.ctx, accounts.fanOut, run.events, async (index, spoolFile, onSignal) => {
    const name = accounts.names[index] as string;
    const ctx: Context = { ...memory.ctx, env: accounts.envFor(name), onSignal };
    const recorded = recordingEvents();
    each.set(name, recorded);
    try {
      await runPlan(ctx, await accounts.planOf(ctx, name, spoolFile), recorded.events);
      return true;
    } catch (failure) {
      failed.set(name, failure);
      return false;
    }
  }).then(
    () => undefined,
    (failure: unknown) => failure as Error,
  );
  return { memory, cwd, run, each, failed, error };
}

describe("fanOut", () => {
  it("one stdout for both: each account's rows in profile order, each row naming its profile", async () => {
    const mock = mockAgent();
    serveKey(mock, ACME, { rows: 2, first: 1 });
    serveKey(mock, GLOBEX, { rows: 3, first: 101 });
    const { memory, run, each, error } = await runAccounts(mock, [...BOTH, "-f", "ndjson"]);
    expect(error).toBeUndefined();
    const rows = ndjsonRows(memory.stdout()) as Array<{ profile: string; dimensions: { campaign_id: number } }>;
    expect(rows.map((row) => `${row.profile} ${row.dimensions.campaign_id}`)).toEqual([
      "acme 1",
      "acme 2",
      "globex 101",
      "globex 102",
      "globex 103",
    ]);
    expect(run.log).toEqual([]);
    expect(each.get("acme")?.summary()).toMatchObject({ outcome: "ok", rows: 2 });
    expect(each.get("globex")?.summary()).toMatchObject({ outcome: "ok", rows: 3 });
  });

  it("{profile} in --output: each account writes its own file", async () => {
    const mock = mockAgent();
    serveKey(mock, ACME, { rows: 2, first: 1 });
    serveKey(mock, GLOBEX, { rows: 1, first: 101 });
    const { cwd, error, memory } = await runAccounts(mock, [...BOTH, "-o", "{profile}.csv"]);
    expect(error).toBeUndefined();
    expect(readFileSync(join(cwd, "acme.csv"), "utf8").trimEnd().split("\n")).toHaveLength(3);
    expect(readFileSync(join(cwd, "globex.csv"), "utf8")).toBe("campaign_id,name,views,clicks\n101,Campaign 101,0,0\n");
    expect(memory.stdout()).toBe("");
  });

  it("one account refused and one file for both: the file is not written, and the run says why", async () => {
    const mock = mockAgent();
    serveKey(mock, ACME, { rows: 2, first: 1 });
    serveKey(mock, GLOBEX, { status: 401 });
    const { cwd, run, failed, error } = await runAccounts(mock, [...BOTH, "-o", "all.csv"]);
    expect(error).toBeUndefined();
    expect(exitCodeOf(failed.get("globex"))).toBe(3);
    expect([...failed.keys()]).toEqual(["globex"]);
    expect(run.said()).toEqual([
      "note: all.csv was not written: some accounts failed\nhint: --allow-partial writes it with the accounts that succeeded",
    ]);
    expect(existsSync(join(cwd, "all.csv"))).toBe(false);
  });

  it("--allow-partial: the file holds the accounts that succeeded", async () => {
    const mock = mockAgent();
    serveKey(mock, ACME, { rows: 2, first: 1 });
    serveKey(mock, GLOBEX, { status: 401 });
    const { cwd, run, error } = await runAccounts(mock, [...BOTH, "--allow-partial", "-o", "all.csv"]);
    expect(error).toBeUndefined();
    expect(run.said()).toEqual([]);
    expect(readFileSync(join(cwd, "all.csv"), "utf8")).toBe(
      "profile,campaign_id,name,views,clicks\nacme,1,Campaign 1,0,0\nacme,2,Campaign 2,10,1\n",
    );
  });

  it("SIGINT while an account's answer is held: every account stopped, the file and the spool gone", async () => {
    const mock = mockAgent();
    const spool = tempDir("adreport-spool-");
    let memory: MemoryContext | undefined;
    serveKey(mock, ACME, { rows: 2, first: 1 });
    serveKey(mock, GLOBEX, { rows: 1, first: 101 }, { delayMs: 60_000, onRequest: () => memory?.signal("SIGINT") });
    const started = performance.now();
    const run = await runAccounts(mock, [...BOTH, "-o", "all.csv"], {
      env: { TMPDIR: spool },
      during: (m) => {
        memory = m;
      },
    });
    expect(run.error?.message).toBe("interrupted; all.csv was left as it was");
    expect(exitCodeOf(run.error)).toBe(130);
    expect(existsSync(join(run.cwd, "all.csv"))).toBe(false);
    expect(readdirSync(spool)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(run.memory.signalHandlers()).toBe(0);
  });
});
