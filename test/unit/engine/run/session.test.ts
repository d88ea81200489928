/**
 * One session around a fetch (withSession): the progress display, the API client on the plan's settings,
 * a signal, --max-time, one restart after "data changed", and the error a failed run ends with.
 */
import { describe, expect, it } from "vitest";
import { DataChangedError, InterruptedError } from "../../../../src/core/errors";
import { type SessionOptions, withSession } from "../../../../src/engine/run/session";
import { plannedRun } from "../../../helpers/engine-run";
import { mockAgent, rowsOf, servePages } from "../../../helpers/mock-api";
import { recordingEvents } from "../../../helpers/recorded-events";

const CAMPAIGNS = ["--dims", "campaign", "--metrics", "views,clicks"];

/** A session's options over the plan of `report ARGV`, recording what it is told. */
async function sessionOf(argv: readonly string[], more: Partial<SessionOptions> = {}) {
  const mock = mockAgent();
  servePages(mock, rowsOf(3));
  const { memory, plan } = await plannedRun(argv, { dispatcher: mock.agent });
  const recorded = recordingEvents();
  const calls: string[] = [];
  const options: SessionOptions = {
    ctx: memory.ctx,
    events: recorded.events,
    plan,
    counts: { requests: 0, retries: 0, throttled: 0 },
    howFar: (progress) => (progress ? `${progress.rows} rows` : "nothing yet"),
    interrupted: () => "interrupted; out.csv was left as it was",
    abortNow: () => calls.push("abortNow"),
    ...more,
  };
  return { mock, memory, plan, recorded, calls, options };
}

/** Resolves when `signal` aborts, with its reason. */
function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(signal.reason), { once: true }));
}

describe("withSession", () => {
  it("opens the display as the plan says, asks through the plan's client, and lets go of the signal after", async () => {
    const { options, recorded, memory } = await sessionOf([...CAMPAIGNS, "--verbose"]);
    const rows = await withSession(options, async (session) => {
      expect(memory.signalHandlers()).toBe(1);
      const page = await session.api.getReportPage({ from: "2026-11-01", to: "2026-11-07", page: "1", limit: "10" });
      return page.data.length;
    });
    expect(rows).toBe(3);
    expect(recorded.log[0]).toEqual({ kind: "progress", quiet: false, verbose: true });
    expect(recorded.story()).toEqual(["progress", "sent p1", "response 200 p1"]);
    expect(options.counts).toEqual({ requests: 1, retries: 0, throttled: 0 });
    expect(memory.signalHandlers()).toBe(0);
  });

  it("a failure: the display stopped, onFailure's error thrown, the signal let go", async () => {
    const seen: unknown[] = [];
    const { options, recorded, memory } = await sessionOf(CAMPAIGNS, {
      onFailure: async (error, stopped) => {
        seen.push(error, stopped);
        return new Error("what the run says");
      },
    });
    const failure = new Error("the output broke");
    await expect(withSession(options, async () => Promise.reject(failure))).rejects.toThrow("what the run says");
    expect(seen).toEqual([failure, undefined]);
    expect(recorded.log.at(-1)).toEqual({ kind: "stop" });
    expect(memory.signalHandlers()).toBe(0);
  });

  it("SIGINT: the output stopped at once, the fetch aborted, the run ends with the interrupt's message", async () => {
    const { options, memory, calls } = await sessionOf(CAMPAIGNS);
    const run = withSession(options, async (session) => {
      const reason = aborted(session.signal);
      memory.signal("SIGINT");
      throw await reason;
    });
    await expect(run).rejects.toThrow(new InterruptedError("interrupted; out.csv was left as it was"));
    expect(calls).toEqual(["abortNow"]);
  });

  it("--max-time: the fetch aborted with how far it got; the output stopped only when asked to", async () => {
    for (const abortOnDeadline of [false, true]) {
      const { options, calls } = await sessionOf([...CAMPAIGNS, "--max-time", "20ms"], { abortOnDeadline });
      const run = withSession(options, async (session) => {
        session.onProgress({ page: 1, pages: 4, rows: 100, total: 400 });
        throw await aborted(session.signal);
      });
      await expect(run).rejects.toThrow("gave up after 20ms (max-time): 100 rows");
      expect(calls).toEqual(abortOnDeadline ? ["abortNow"] : []);
    }
  });

  it("data changed once: the output restarts and the work runs again", async () => {
    const { options } = await sessionOf(CAMPAIGNS);
    const steps: string[] = [];
    const result = await withSession(options, (session) =>
      session.withRestart(
        async () => {
          steps.push("try");
          if (steps.length === 1) throw new DataChangedError("the report changed");
          return "done";
        },
        { canRestart: () => true, restart: async () => void steps.push("restart") },
      ),
    );
    expect(result).toBe("done");
    expect(steps).toEqual(["try", "restart", "try"]);
  });

  it("data changed twice: one restart only, then the change is the run's error", async () => {
    const { options } = await sessionOf(CAMPAIGNS);
    let tries = 0;
    const run = withSession(options, (session) =>
      session.withRestart(
        async () => {
          tries += 1;
          throw new DataChangedError(`changed ${tries}`);
        },
        { canRestart: () => true, restart: async () => undefined },
      ),
    );
    await expect(run).rejects.toThrow("changed 2");
    expect(tries).toBe(2);
  });

  it("data changed where the output cannot start again: the output's own refusal", async () => {
    const { options } = await sessionOf(CAMPAIGNS);
    const run = withSession(options, (session) =>
      session.withRestart(
        async () => {
          throw new DataChangedError("the report changed");
        },
        {
          canRestart: () => false,
          restart: async () => undefined,
          cannotRestart: (error) => new DataChangedError(`${error.message}; stdout is incomplete`),
        },
      ),
    );
    await expect(run).rejects.toThrow("the report changed; stdout is incomplete");
  });
});
