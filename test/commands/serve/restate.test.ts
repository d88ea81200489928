/**
 * The restatement verbs as an operator types them: `serve demo --restate-seed`, `serve restate`, `serve
 * clock`; a 90-day walk of the clock a day at a time, while a `serve` answers at each clock; and the
 * refusals, each one line and a hint that runs as printed.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { httpGet } from "../../helpers/http";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { serveInProcess } from "../../helpers/serve-in-process";
import { runCli } from "../../helpers/spawn-cli";
import { tempDir } from "../../helpers/temp";

const SMALL = ["--advertisers", "1", "--campaigns", "2", "--ads", "2", "--keywords", "1", "--activity", "0.5"];

async function demo(db: string, ...extra: string[]) {
  const result = await runInProcess([
    "serve",
    "demo",
    "--db",
    db,
    "--days",
    "150",
    "--end",
    "2026-12-01",
    ...SMALL,
    ...extra,
  ]);
  expect(result.code, result.stderr).toBe(0);
  return result;
}

describe("serve demo --restate-seed and serve clock", () => {
  it("walks 90 days a day at a time, a running serve answering at each clock", async () => {
    const db = join(tempDir(), "walk.db");
    const seeded = await demo(db, "--restate-seed", "11", "--restate-horizon", "20d", "--clock", "2026-09-01");
    expect(seeded.stderr).toMatch(
      /restatement model seed 11, horizon 20d, clock 2026-09-01T00:00:00Z; ads deleted: \d+ at /,
    );
    const issued = await runInProcess([
      "serve",
      "key",
      "issue",
      "--db",
      db,
      "--advertiser",
      "Acme Outdoor",
      "--ip",
      "127.0.0.1",
    ]);
    const key = issued.stdout.trim();
    const serve = await serveInProcess(["--db", db, "-q"]);
    const lastDay = async () => {
      const answer = await httpGet(
        `${serve.url}/v1/report?from=2026-08-01&to=2026-10-29&metrics=views&dimensions=date`,
        { key },
      );
      const data = (answer.json as { data: Array<{ dimensions: { date: number } }> }).data;
      return new Date((data.at(-1)?.dimensions.date ?? 0) * 1000).toISOString().slice(0, 10);
    };
    expect(await lastDay()).toBe("2026-08-31");
    let clock = "";
    for (let day = 1; day <= 90; day += 1) {
      const moved = await runInProcess(["serve", "clock", "--db", db, "--advance", "1d"]);
      expect(moved.code, moved.stderr).toBe(0);
      expect(moved.stderr).toMatch(/clock at \d{4}-\d\d-\d\d \(\d+ days rewritten in \d+ ms\)/);
      clock = moved.stdout.trim();
      if (day === 30) {
        // The running serve sees the move within its freshness time (a quarter of a second).
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(await lastDay()).toBe("2026-09-30");
      }
    }
    expect(clock).toBe("2026-11-30");
    const shown = await runInProcess(["serve", "clock", "--db", db]);
    expect(shown.stdout).toBe("2026-11-30\n");
    expect(shown.stderr).toMatch(/seed 11, horizon 20d, clock 2026-11-30T00:00:00Z/);
    const set = await runInProcess(["serve", "clock", "--db", db, "--set", "2026-10-15T06:30Z"]);
    expect(set.stdout).toBe("2026-10-15T06:30:00Z\n");
  });

  it("seeds a database loaded before, takes the model off, and says what it did", async () => {
    const db = join(tempDir(), "seeded.db");
    await demo(db);
    const seeded = await runInProcess(["serve", "restate", "--db", db, "--seed", "4", "--horizon", "7d"]);
    expect(seeded.code, seeded.stderr).toBe(0);
    // By default the clock is the midnight after the data's last hour: every hour is there.
    expect(seeded.stdout).toBe("2026-12-01\n");
    const off = await runInProcess(["serve", "restate", "--db", db, "--off"]);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stderr).toMatch(/no longer restates/);
    const none = await runInProcess(["serve", "clock", "--db", db]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/holds no restatement model/);
  });

  it("moves the clock once for each of several processes moving it at once", async () => {
    const db = join(tempDir(), "racing.db");
    await demo(db, "--restate-seed", "3", "--clock", "2026-10-01");
    const moves = await Promise.all([1, 2, 3].map(() => runCli(["serve", "clock", "--db", db, "--advance", "1d"])));
    for (const move of moves) expect(move.code, move.stderr).toBe(0);
    expect(moves.map((m) => m.stdout.trim()).sort()).toEqual(["2026-10-02", "2026-10-03", "2026-10-04"]);
  });

  it("refuses what cannot be meant, exit 2, with a hint that runs as printed", async () => {
    const db = join(tempDir(), "refusals.db");
    await demo(db, "--restate-seed", "2");
    const cases: Array<[string[], RegExp]> = [
      [["serve", "demo", "--db", db, "--clock", "2026-09-01"], /--clock goes with --restate-seed N/],
      [["serve", "demo", "--ndjson", "-", "--restate-seed", "1"], /--ndjson writes the data as generated/],
      [["serve", "restate", "--db", db, "--horizon", "0d"], /--horizon: "0d" is not a number of days from 1d to 365d/],
      [["serve", "restate", "--db", db, "--off", "--seed", "3"], /--seed has nothing to do with it/],
      [["serve", "clock", "--db", db, "--set", "tomorrow"], /--set: "tomorrow" is not a date or a date-time/],
      [["serve", "clock", "--db", db, "--advance", "-1d"], /--advance: "-1d" is not a step/],
      [["serve", "clock", "--db", db, "--set", "2026-01-01", "--advance", "1d"], /not both/],
    ];
    for (const [args, message] of cases) {
      const result = await runInProcess(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    // A clock moved past the last one --set reads back: refused, the clock where it was.
    expect((await runInProcess(["serve", "clock", "--db", db, "--set", "9999-12-31T12:00Z"])).code).toBe(0);
    const past = await runInProcess(["serve", "clock", "--db", db, "--advance", "2d"]);
    expect(past.code, past.stderr).toBe(2);
    expect(past.stderr).toMatch(/^adreport: the clock would go past 9999-12-31T23:59:59Z/);
    expect(past.stderr).toContain(`hint: adreport serve clock --set 9999-12-31T23:00Z --db ${db}`);
    expect((await runInProcess(["serve", "clock", "--db", db])).stdout).toBe("9999-12-31T12:00:00Z\n");
    expect((await runInProcess(["serve", "clock", "--set", "9999-12-31T23:00Z", "--db", db])).code).toBe(0);
    // A load would be undone by the next move of the clock: refused, with the way out.
    const load = await runInProcess(["serve", "demo", "--db", db, "--days", "1", ...SMALL]);
    expect(load.code).toBe(2);
    expect(load.stderr).toMatch(/restates its data/);
    const hint = load.stderr.split("\n").find((line) => line.includes("adreport serve restate --off"));
    expect(hint).toBeDefined();
    const argv = (hint as string)
      .replace(/^.*adreport /, "")
      .trim()
      .split(" ");
    expect((await runInProcess(argv)).code).toBe(0);
    // Nothing to restate in an empty database; no clock to move without a model.
    const empty = join(tempDir(), "empty.db");
    expect((await runInProcess(["serve", "init", "--db", empty])).code).toBe(0);
    const nothing = await runInProcess(["serve", "restate", "--db", empty]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toBe(
      `adreport: the database holds no data to restate\nhint: adreport serve demo --db ${empty}\n`,
    );
    const noModel = await runInProcess(["serve", "clock", "--db", empty, "--advance", "1d"]);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toBe(
      `adreport: the database holds no restatement model\nhint: adreport serve restate --seed 1 --db ${empty}\n`,
    );
  });
});
