/**
 * Hostile and long rate-limit fields against the one rule of every wait (core/wait.ts): a wait over 5
 * minutes or past --max-time ends the run at once with exit 5, one past an hour says the daily quota is
 * spent, a wait a person notices is said on stderr before it starts, and no delay too long for a timer ever
 * reaches one (Node would fire it after 1 ms: every page at once to a service that said none is left).
 * A fake service on loopback sends the fields on every good answer; counts and messages decide.
 */
import { describe, expect, it } from "vitest";
import { type FakeService, type ServiceOptions, startFakeService } from "../../helpers/fake-service";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { tempDir } from "../../helpers/temp";

const KEY = `adr_${"f".repeat(43)}`;

/** A fake service with `options` for the length of `use`: cases that only wait run side by side. */
async function withService<T>(options: ServiceOptions, use: (service: FakeService) => Promise<T>): Promise<T> {
  const service = await startFakeService(options);
  try {
    return await use(service);
  } finally {
    await service.close();
  }
}

type Fields = Record<string, string>;

function report(fields: (page: number) => Fields, extra: string[] = []) {
  return withService({ rows: 100, headers: (request) => fields(request.page) }, async (service) => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const result = await runInProcess(
        ["report", "-q", "--dims", "campaign", "--format", "ndjson", "--page-size", "10", ...extra],
        { env: { ADREPORT_CONFIG_DIR: tempDir(), ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: service.url } },
      );
      return { ...result, warnings, requests: service.total() };
    } finally {
      process.off("warning", onWarning);
    }
  });
}

const yearAhead = String(Math.floor(Date.now() / 1000) + 365 * 86_400);

describe("a quota the rate-limit fields say is spent", () => {
  it.each([
    [
      "RateLimit-Remaining: 0 with RateLimit-Reset: 7000",
      { "ratelimit-remaining": "0", "ratelimit-reset": "7000" },
      /117 min/,
    ],
    ["RateLimit-Reset past 2^31 ms", { "ratelimit-remaining": "0", "ratelimit-reset": "99999999" }, /days/],
    [
      "X-RateLimit-Reset a year ahead as a Unix time",
      { "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": yearAhead },
      /36[56] days/,
    ],
    ["the IETF field with t=99999999999", { ratelimit: '"default";r=0;t=99999999999' }, /days/],
    ["the IETF field with t=999999999999", { ratelimit: '"default";r=0;t=999999999999' }, /days/],
    [
      "the IETF fields with a policy of a second and t=99999999999",
      { "ratelimit-policy": '"default";q=10;w=1', ratelimit: '"default";r=0;t=99999999999' },
      /days/,
    ],
  ])("%s: ends at once with exit 5, after one request, saying the daily quota is spent", async (_, fields, wait) => {
    // --max-time keeps a wait that is not ended from holding the test: it must end long before.
    const run = await report(() => fields, ["--max-time", "20s"]);
    expect(run.code, run.stderr).toBe(5);
    expect(run.stderr).toMatch(
      /^adreport: the daily quota is spent \(its RateLimit fields say none is left\); the service asks to wait /m,
    );
    expect(run.stderr).toMatch(wait);
    expect(run.stderr).toMatch(/^hint: run the export again once the quota is renewed$/m);
    expect(run.requests).toBe(1);
    expect(run.warnings).not.toContain("TimeoutOverflowWarning");
  });

  it("a reset past 5 minutes but within the hour ends the run at once too, saying how long", async () => {
    const run = await report(() => ({ "ratelimit-remaining": "0", "ratelimit-reset": "600" }), ["--max-time", "20s"]);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(
      /^adreport: its RateLimit fields say none is left; the service asks to wait 10 min \(until /m,
    );
    expect(run.requests).toBe(1);
  });

  // The cases that wait run side by side (each its own service and config folder). A wait a person notices
  // is one of 5 s or more (core/wait.ts); 5.5 s is said as `6 s`, rounded up.
  it.concurrent("a wait a person notices is said on stderr before it starts, even with -q", async () => {
    // None left for 5.5 s after the first page, then the service says nothing more.
    const spent: Fields = { "ratelimit-remaining": "0", "ratelimit-reset": "5.5" };
    const run = await report((page) => (page === 1 ? spent : {}));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(100);
    expect(run.stderr).toMatch(
      /^adreport: waiting 6 s \(until \d\d:\d\d:\d\d UTC\): its RateLimit fields say none is left$/m,
    );
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  }, 20_000);

  it.concurrent("X-RateLimit-Reset as a Unix time in milliseconds is that instant, not 50,000 years", async () => {
    // None left for 5.5 s after the first page, as GitHub-like services say it, in milliseconds.
    const spent = (): Fields => ({
      "x-ratelimit-limit": "100",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(Date.now() + 5500),
    });
    const run = await report((page) => (page === 1 ? spent() : {}), ["--max-time", "20s"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(100);
    expect(run.stderr).toMatch(
      /^adreport: waiting 6 s \(until \d\d:\d\d:\d\d UTC\): its RateLimit fields say none is left$/m,
    );
  }, 20_000);

  it.concurrent("with --verbose a short wait is said too, to the tenth of a second; without it, not", async () => {
    // 1.2 s: said in tenths (from 1 s on; under it, in ms).
    const spent: Fields = { "ratelimit-remaining": "0", "ratelimit-reset": "1.2" };
    await withService({ rows: 100, headers: (request) => (request.page === 1 ? spent : {}) }, async (service) => {
      const env = { ADREPORT_CONFIG_DIR: tempDir(), ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: service.url };
      const args = ["report", "--dims", "campaign", "--format", "ndjson", "--page-size", "10"];
      const verbose = await runInProcess([...args, "-v"], { env });
      expect(verbose.code, verbose.stderr).toBe(0);
      expect(verbose.stderr).toMatch(
        /^adreport: waiting [12]\.\d s \(until \d\d:\d\d:\d\d UTC\): its RateLimit fields say none is left$/m,
      );
      const quiet = await runInProcess([...args, "-q"], { env });
      expect(quiet.code, quiet.stderr).toBe(0);
      expect(quiet.stderr).toBe("");
    });
  }, 20_000);

  it("a service that answers 429 to every try ends the run with exit 5 and what to do about it", async () => {
    await withService({ rows: 100, fault: () => "429-retry-after-0" }, async (service) => {
      const env = { ADREPORT_CONFIG_DIR: tempDir(), ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: service.url };
      const run = await runInProcess(["report", "-q", "--dims", "campaign", "--retries", "1"], { env });
      expect(run.code).toBe(5);
      expect(run.stderr).toBe(
        "adreport: the service answered 429: slow down (page 1: gave up after 2 attempts)\n" +
          "hint: run the export again later; to stay under the service's limit, lower --concurrency or set --rate (2/s)\n",
      );
      expect(service.total()).toBe(2);
    });
  });
});
