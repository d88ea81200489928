/**
 * What a report says about the range it covered: a report without rows names the range and zone asked on
 * stderr (stdout keeps only the data, exit 0); --compare names both periods in the table's title and in
 * JSON meta (`current` beside `previous`). The CLI in this process against a real `serve` whose data ends
 * on 2026-10-31.
 */
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";
import { runInProcess } from "../../helpers/run-cli-in-process";
import type { CliResult } from "../../helpers/spawn-cli";

const { env } = await startDemoService();

function report(args: string[], now = new Date("2026-11-24T09:30:00Z")): Promise<CliResult> {
  return runInProcess(["report", ...args], {
    env,
    now,
  });
}

describe.concurrent("a report without rows", () => {
  it("names the default range (the last 7 days) and its zone on stderr, one line; stdout has the header only", async () => {
    const result = await report(["--dims", "campaign,date", "-f", "csv"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("campaign_id,name,date,views,spending,clicks,conversions\n");
    expect(result.stderr).toBe("adreport: no rows for 2026-11-17..2026-11-23 (UTC)\n");
  });

  it("names the zone of --tz, and instants for a range that is not whole days", async () => {
    const zoned = await report(["--from", "2026-11-20", "--to", "2026-11-21", "--tz", "Europe/Berlin", "--dims", "ad"]);
    expect(zoned.code).toBe(0);
    expect(zoned.stderr).toBe("adreport: no rows for 2026-11-20..2026-11-21 (Europe/Berlin)\n");
    const hours = await report(["--from", "2026-11-20T06:00:00Z", "--to", "2026-11-20T18:00:00Z", "--dims", "ad"]);
    expect(hours.stderr).toBe("adreport: no rows for 2026-11-20T06:00:00Z..2026-11-20T18:00:00Z (UTC)\n");
    expect(hours.stdout).toBe("ad_id,name,campaign_id,views,spending,clicks,conversions\n");
  });

  it("with --compare, names both periods when neither has a row", async () => {
    const result = await report(["--dims", "campaign", "--compare", "previous", "-f", "ndjson"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("adreport: no rows for 2026-11-17..2026-11-23 or 2026-11-10..2026-11-16 (UTC)\n");
  });

  it("says nothing when there are rows", async () => {
    const result = await report(["--dims", "campaign", "-f", "csv"], new Date("2026-11-01T09:30:00Z"));
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout.split("\n").length).toBeGreaterThan(2);
  });
});

describe.concurrent("--compare names both periods", () => {
  const RANGE = ["--from", "2026-10-25", "--to", "2026-10-31", "--dims", "campaign", "--metrics", "views"];

  it("in the table's title", async () => {
    const result = await report([...RANGE, "--compare", "previous", "-f", "table"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe(
      "2026-10-25..2026-10-31 compared with 2026-10-18..2026-10-24 (the period before; UTC)",
    );
    const year = await report([...RANGE, "--compare", "year", "--tz", "Europe/Berlin", "-f", "table"]);
    expect(year.stdout.split("\n")[0]).toBe(
      "2026-10-25..2026-10-31 compared with 2025-10-25..2025-10-31 (the same dates a year earlier; Europe/Berlin)",
    );
  });

  it("in JSON meta: current beside previous", async () => {
    const result = await report([...RANGE, "--compare", "previous", "-f", "json"]);
    expect(result.code, result.stderr).toBe(0);
    const meta = (JSON.parse(result.stdout) as { meta: Record<string, unknown> }).meta;
    expect(meta).toMatchObject({
      compare: "previous",
      current: { from: "2026-10-25T00:00:00Z", to: "2026-10-31T23:59:59Z" },
      previous: { from: "2026-10-18T00:00:00Z", to: "2026-10-24T23:59:59Z" },
    });
  });

  it("a table without --compare has no title", async () => {
    const result = await report([...RANGE, "-f", "table"]);
    expect(result.stdout.startsWith("┌")).toBe(true);
  });
});
