/**
 * --compare fetches two reports side by side: together they keep to --concurrency (a service that limits
 * requests at once is asked no more than the user allowed), and together they use all of it. The fake
 * service holds every answer until the client has as many requests waiting as it will send, so the most
 * held at once is the client's own limit, neither the service's pace nor luck.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type PageRequest, startFakeService } from "../../helpers/fake-service";
import { KEY } from "../../helpers/mock-api";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { tempDir } from "../../helpers/temp";

const PAGES = 12;
/** With `size` held, wait this long for one more (a client over its limit sends it at once), then answer one. */
const SETTLE_MS = 40;
/** With fewer held, the client is waiting for an answer when nothing more has come for this long. */
const QUIET_MS = 150;

/** Holds requests; answers the oldest once `size` are held (and SETTLE_MS passed) or nothing came for QUIET_MS. */
function inFlightGate(size: number) {
  const held: Array<{ period: string; answer: () => void }> = [];
  let peak = 0;
  let bothPeriods = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    if (held.length === 0) return;
    timer = setTimeout(
      () => {
        held.shift()?.answer();
        arm();
      },
      held.length >= size ? SETTLE_MS : QUIET_MS,
    );
  };
  const hold = (request: PageRequest) =>
    new Promise<void>((answer) => {
      held.push({ period: request.params.get("from") ?? "", answer });
      peak = Math.max(peak, held.length);
      if (new Set(held.map((h) => h.period)).size > 1) bothPeriods = true;
      arm();
    });
  return { hold, peak: () => peak, bothPeriods: () => bothPeriods };
}

describe("--compare and --concurrency", () => {
  it.each([1, 3])("--concurrency %i: exactly that many requests in flight at most, over both periods", async (n) => {
    const gate = inFlightGate(n);
    const service = await startFakeService({
      rows: PAGES,
      hold: gate.hold,
      meta: () => ({ metrics: ["clicks"] }),
      rowsOf: ({ page }) => [{ dimensions: { campaign_id: page, name: `c${page}` }, metrics: { clicks: page } }],
    });
    const dir = tempDir();
    const result = await runInProcess(
      ["report", "--from", "2026-10-08", "--to", "2026-10-14", "--dims", "campaign", "--metrics", "clicks"].concat([
        "--compare",
        "previous",
        "--page-size",
        "1",
        "--concurrency",
        String(n),
        "-f",
        "csv",
        "-q",
      ]),
      {
        now: new Date("2026-11-02T08:00:00Z"),
        env: { ADREPORT_CONFIG_DIR: join(dir, "config"), ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: service.url },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split("\n")).toHaveLength(PAGES + 1);
    expect(service.total()).toBe(2 * PAGES);
    expect(gate.peak()).toBe(n);
    // Shared, not taken in turns: with room for more than one, both periods had requests waiting together.
    if (n > 1) expect(gate.bothPeriods()).toBe(true);
  });
});
