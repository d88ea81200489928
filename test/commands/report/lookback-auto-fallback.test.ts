/**
 * `--lookback auto` in front of a service of another make (a small server on 127.0.0.1 forwarding to a real
 * serve, answering the totals request its own way): a 400, or an answer of another shape, makes the run
 * fetch the fixed lookback instead, with one warning line, and the job's files are as a plain export's.
 * And `--dry-run` of an auto job: the plan from the ledger, no request made.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { request } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { at, newService } from "../../helpers/incremental";
import { startLocalServer } from "../../helpers/local-server";

const JOB = [
  "report",
  "--dims",
  "ad,date",
  "--granularity",
  "hour",
  "-o",
  "out/{date}.csv",
  "--incremental",
  "--lookback",
  "auto",
  "--page-size",
  "100",
];

type Answer = "pass" | { status: number; body: string } | { rewrite(body: string): string } | { wait(): Promise<void> };

/** Forwards to `target`; `answer` may answer a request itself. Records each request's query. */
async function otherMake(target: string, answer: (params: URLSearchParams) => Answer) {
  const up = new URL(target);
  const seen: URLSearchParams[] = [];
  const finished: URLSearchParams[] = [];
  const waiting: Array<{ wanted: (p: URLSearchParams) => boolean; resolve: () => void }> = [];
  /** Resolves once a request `wanted` picks has been answered whole. */
  const whenAnswered = (wanted: (p: URLSearchParams) => boolean) =>
    new Promise<void>((resolve) => {
      if (finished.some(wanted)) resolve();
      else waiting.push({ wanted, resolve });
    });
  const server = await startLocalServer(async (req: IncomingMessage, res: ServerResponse) => {
    const params = new URL(req.url ?? "/", "http://x").searchParams;
    seen.push(params);
    res.on("finish", () => {
      finished.push(params);
      for (const w of waiting) if (w.wanted(params)) w.resolve();
    });
    let own = answer(params);
    if (own !== "pass" && "wait" in own) {
      await own.wait();
      own = "pass";
    }
    if (own !== "pass" && "status" in own) {
      res.writeHead(own.status, { "content-type": "application/json" });
      res.end(own.body);
      return;
    }
    const upstream = request(
      { host: up.hostname, port: up.port, path: req.url, method: req.method, headers: req.headers },
      (reply) => {
        if (own === "pass") {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        reply.on("data", (chunk: Buffer) => chunks.push(chunk));
        reply.on("end", () => {
          res.writeHead(reply.statusCode ?? 502, { "content-type": "application/json" });
          res.end(own.rewrite(Buffer.concat(chunks).toString("utf8")));
        });
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  return { url: server.url, seen, whenAnswered };
}

/** The totals request: by day, while the job asks for hours. */
const isTotals = (params: URLSearchParams) => params.get("granularity") === "day";

function stateOf(dir: string) {
  const folder = join(dir, "config", "state");
  const name = readdirSync(folder).find((n) => /^[0-9a-f]{8}\.json$/.test(n)) as string;
  return JSON.parse(readFileSync(join(folder, name), "utf8"));
}

const summaryOf = (stderr: string) => JSON.parse(stderr.trim().split("\n").at(-1) as string);

describe("report --lookback auto against a service that does not answer the totals request", () => {
  let refuse: (params: URLSearchParams) => Answer = () => "pass";

  async function started() {
    const demo = await newService();
    const make = await otherMake(demo.env.ADREPORT_BASE_URL as string, (p) => refuse(p));
    mkdirSync(join(demo.dir, "out"));
    const run = (args: string[], now: Date) => demo.run(args, now, { ADREPORT_BASE_URL: make.url });
    return { ...demo, run, make };
  }

  it("a 400 on those dimensions: one warning, the fixed lookback of 3 days fetched, the files right", async () => {
    refuse = () => "pass";
    const { dir, run, make, restate, anHourOf } = await started();
    expect((await run([...JOB, "--start", "2026-10-18"], at("2026-10-26"))).code).toBe(0);
    await restate(anHourOf("2026-10-24"));
    refuse = (p) =>
      isTotals(p) ? { status: 400, body: '{"message":"granularity day is not offered for hourly accounts"}' } : "pass";
    const asked = make.seen.length;
    const again = await run([...JOB, "--summary", "json"], at("2026-10-27"));
    expect(again.code, again.stderr).toBe(0);
    const warnings = again.stderr.split("\n").filter((line) => line.startsWith("adreport: warning:"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^adreport: warning: the service did not answer the totals --lookback auto asks for \(.+\); this run fetches again the last 3 days instead \(--lookback 3d\)$/,
    );
    // The totals were asked once (no retry of a 400), then the fixed lookback's days: 2026-10-23 to the new day.
    expect(make.seen.slice(asked).filter(isTotals)).toHaveLength(1);
    expect(summaryOf(again.stderr)).toMatchObject({ outcome: "ok", from: "2026-10-23", to: "2026-10-26" });
    expect(again.stderr).toMatch(/^adreport: 2026-10-24: spending .* -> /m);
    const decision = stateOf(dir).autoLookback.decisions.at(-1);
    expect(decision).toMatchObject({ mode: "fallback", checked: null, fallback: { lookbackDays: 3 } });
    expect(decision.fallback.reason).toMatch(/granularity day is not offered/);
  });

  it("an answer of another shape (rows without a date) falls back too, never to fetching less", async () => {
    refuse = () => "pass";
    const { run } = await started();
    expect((await run([...JOB, "--start", "2026-10-18"], at("2026-10-26"))).code).toBe(0);
    refuse = (p) =>
      isTotals(p)
        ? {
            status: 200,
            body: JSON.stringify({
              meta: {
                granularity: "daily",
                dimensions: (p.get("dimensions") ?? "").split(","),
                metrics: ["views"],
                total: 1,
                page: 1,
                limit: 100,
                has_more: false,
              },
              data: [{ dimensions: { ad_id: 1, campaign_id: 1, day: "2026-10-20" }, metrics: { views: 3 } }],
            }),
          }
        : "pass";
    const again = await run([...JOB, "--summary", "json"], at("2026-10-27"));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(
      /^adreport: warning: .*it answered in another shape \(a row without a day, an id or a number per metric\)/m,
    );
    expect(summaryOf(again.stderr)).toMatchObject({ from: "2026-10-23", to: "2026-10-26" });
  });

  it("a job whose last check found nothing (its new day fetched while the totals are asked) falls back the same", async () => {
    refuse = () => "pass";
    const { dir, run, make } = await started();
    expect((await run([...JOB, "--start", "2026-10-18"], at("2026-10-26"))).code).toBe(0);
    expect((await run([...JOB], at("2026-10-27"))).code).toBe(0);
    refuse = (p) => (isTotals(p) ? { status: 503, body: "" } : "pass");
    const asked = make.seen.length;
    const again = await run([...JOB, "--summary", "json", "--retries", "0"], at("2026-10-28"));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr.match(/^adreport: warning: /gm)).toHaveLength(1);
    expect(again.stderr).toMatch(/this run fetches again the last 7 days instead \(--lookback 7d\)$/m);
    expect(summaryOf(again.stderr)).toMatchObject({ outcome: "ok", from: "2026-10-20", to: "2026-10-27" });
    // The new day once, on its own; the fallback's days in another request: never the new day twice.
    const days = make.seen
      .slice(asked)
      .filter((p) => !isTotals(p))
      .map((p) => p.get("from"));
    expect(days.filter((from) => from?.startsWith("2026-10-27"))).toHaveLength(1);
    expect(stateOf(dir).autoLookback.decisions.at(-1)).toMatchObject({
      mode: "fallback",
      fallback: { lookbackDays: 7 },
    });
  });

  it("a fallback never reaches before the job's first day, however far its learned horizon goes", async () => {
    refuse = () => "pass";
    const { dir, run } = await started();
    expect((await run([...JOB, "--start", "2026-10-18"], at("2026-10-26"))).code).toBe(0);
    const folder = join(dir, "config", "state");
    const path = join(folder, readdirSync(folder).find((n) => /^[0-9a-f]{8}\.json$/.test(n)) as string);
    const state = JSON.parse(readFileSync(path, "utf8"));
    writeFileSync(path, JSON.stringify({ ...state, autoLookback: { ...state.autoLookback, learnedHorizonDays: 30 } }), {
      mode: 0o600,
    });
    refuse = (p) => (isTotals(p) ? { status: 400, body: "{}" } : "pass");
    const again = await run([...JOB, "--summary", "json"], at("2026-10-27"));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/this run fetches again the last 45 days instead \(--lookback 45d\)$/m);
    expect(summaryOf(again.stderr)).toMatchObject({ from: "2026-10-18", to: "2026-10-26" });
    expect(readdirSync(join(dir, "out")).filter((n) => n < "2026-10-18")).toEqual([]);
  });

  it("a service whose totals round spending otherwise than its rows: each day fetched once more, then left alone", async () => {
    refuse = () => "pass";
    const { dir, run } = await started();
    expect((await run([...JOB, "--start", "2026-10-18"], at("2026-10-26"))).code).toBe(0);
    const rounded = (body: string) => {
      const answer = JSON.parse(body) as { data: Array<{ metrics: { spending?: number } }> };
      for (const row of answer.data) {
        if (row.metrics.spending !== undefined) row.metrics.spending = Math.round(row.metrics.spending * 100) / 100;
      }
      return JSON.stringify(answer);
    };
    refuse = (p) => (isTotals(p) ? { rewrite: rounded } : "pass");
    const second = await run([...JOB, "--summary", "json"], at("2026-10-27"));
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toMatch(/warning/);
    expect(stateOf(dir).autoLookback.decisions.at(-1).refetched.length).toBeGreaterThan(0);
    // Its new day's digest was the totals' too: nothing is fetched again from now on.
    for (const day of ["2026-10-28", "2026-10-29"]) {
      const next = await run([...JOB, "--summary", "json"], at(day));
      expect(next.code, next.stderr).toBe(0);
      expect(stateOf(dir).autoLookback.decisions.at(-1).refetched).toEqual([]);
      expect(summaryOf(next.stderr).days_written).toBe(1);
    }
  });

  it("a run that fails after its new day is written, before a day that moved is: the next run still fetches that day", async () => {
    refuse = () => "pass";
    const { dir, run, restate, anHourOf } = await started();
    expect((await run([...JOB, "--start", "2026-10-18"], at("2026-10-26"))).code).toBe(0);
    expect((await run([...JOB], at("2026-10-27"))).code).toBe(0);
    expect(stateOf(dir).autoLookback.decisions.at(-1)).toMatchObject({ mode: "checked", refetched: [] });
    await restate(anHourOf("2026-10-24"));
    // The day that moved cannot be fetched (the service fails on it); the new day was written before.
    refuse = (p) =>
      !isTotals(p) && (p.get("from") ?? "").startsWith("2026-10-24") ? { status: 500, body: "{}" } : "pass";
    const failed = await run([...JOB, "--retries", "0"], at("2026-10-28"));
    expect(failed.code, failed.stderr).toBe(5);
    expect(stateOf(dir).lastDay).toBe("2026-10-27");
    refuse = () => "pass";
    const next = await run([...JOB, "--summary", "json"], at("2026-10-29"));
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/^adreport: 2026-10-24: spending .* -> /m);
    expect(
      stateOf(dir)
        .autoLookback.decisions.at(-1)
        .refetched.map((r: { day: string }) => r.day),
    ).toContain("2026-10-24");
  });

  it("a new day restated while the totals are asked beside it: its rows and the totals' digest disagree, the next run fetches it", async () => {
    refuse = () => "pass";
    const { dir, run, make, restate, anHourOf } = await started();
    expect((await run([...JOB, "--start", "2026-10-18"], at("2026-10-26"))).code).toBe(0);
    expect((await run([...JOB], at("2026-10-27"))).code).toBe(0);
    expect(stateOf(dir).autoLookback.decisions.at(-1)).toMatchObject({ mode: "checked", refetched: [] });
    // The service restates the new day after answering its rows and before answering the totals.
    const newDay = (p: URLSearchParams) => !isTotals(p) && (p.get("from") ?? "").startsWith("2026-10-27");
    refuse = (p) =>
      isTotals(p)
        ? {
            wait: async () => {
              await make.whenAnswered(newDay);
              await restate(anHourOf("2026-10-27"));
            },
          }
        : "pass";
    const quiet = await run([...JOB], at("2026-10-28"));
    expect(quiet.code, quiet.stderr).toBe(0);
    refuse = () => "pass";
    const next = await run([...JOB, "--summary", "json"], at("2026-10-29"));
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/^adreport: 2026-10-27: spending .* -> /m);
  });

  it("--dry-run describes the checked days, the check and the fallback, and asks nothing", async () => {
    refuse = () => "pass";
    const { run, make } = await started();
    expect((await run([...JOB, "--start", "2026-10-18"], at("2026-10-26"))).code).toBe(0);
    expect((await run([...JOB], at("2026-10-27"))).code).toBe(0);
    const asked = make.seen.length;
    const plan = await run([...JOB, "--dry-run"], at("2026-10-28"));
    expect(plan.code, plan.stderr).toBe(0);
    expect(make.seen.length).toBe(asked);
    expect(plan.stdout).toContain(
      "range:    2026-10-27..2026-10-27 (UTC; the days after 2026-10-26, the last day exported, and --lookback auto's days that moved)\n",
    );
    expect(plan.stdout).toContain(
      "lookback: auto (learned horizon 0 days, settled through 2026-10-25); this run covers the last 7 days: learned horizon 0 days + 7 days of margin\n",
    );
    expect(plan.stdout).toMatch(
      /^checked: {2}2026-10-21\.\.2026-10-26 \(6 days\): their totals by campaign,date are asked first \(1 request; a dry run asks nothing\)/m,
    );
    expect(plan.stdout).toContain(
      "fallback: a service that does not answer the totals: --lookback 7d, with a warning\n",
    );
    expect(plan.stdout).toContain("requests: at least 2 (one per window, and the totals)\n");
    const json = await run([...JOB, "--dry-run", "--summary", "json"], at("2026-10-28"));
    expect(JSON.parse(json.stderr.trim().split("\n").at(-1) as string).incremental).toMatchObject({
      lookback: "auto",
      auto: {
        learned_horizon_days: 0,
        checked_from: "2026-10-21",
        mode: "check",
        check_by: "campaign,date",
        check_requests: 1,
      },
    });
  });
});
