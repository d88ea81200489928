/**
 * `--incremental` and `{date}` against a real `serve` whose data is restated between runs (a load of a
 * replacement line), with the clock injected: first run, a run with nothing changed (no file touched),
 * a restated day inside and outside the lookback, a gap caught up, a failed run, `state reset`, two runs
 * at once. Each day file is checked against a plain single-day export of the same service.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { at, DAY, exports, newService, snapshot, temps } from "../../helpers/incremental";

const CRON = ["report", "--dims", "campaign,date", "-o", "out/{date}.csv", "--incremental"];

describe("report --incremental into {date} files", () => {
  it("exports, leaves unchanged days alone, rewrites restated days in the lookback, catches up a gap", async () => {
    const { dir, run, restate, anHourOf, plainDay } = await newService();

    mkdirSync(join(dir, "out"));
    const first = await run([...CRON, "--start", "2026-10-20", "--summary", "json"], at("2026-11-02"));
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe("");
    const days = exports(dir);
    expect(days).toHaveLength(13);
    expect(days[0]).toBe("2026-10-20.csv");
    expect(days.at(-1)).toBe("2026-11-01.csv");
    for (const name of ["2026-10-20.csv", "2026-10-27.csv", "2026-11-01.csv"]) {
      expect(readFileSync(join(dir, "out", name), "utf8")).toBe(await plainDay(name.slice(0, 10), at("2026-11-02")));
    }
    const summary = JSON.parse(first.stderr.trim().split("\n").at(-1) as string);
    expect(summary).toMatchObject({ outcome: "ok", from: "2026-10-20", to: "2026-11-01", days_written: 13 });
    expect(summary.requests).toBeGreaterThan(0);
    const states = readdirSync(join(dir, "config", "state")).filter((n) => /^[0-9a-f]{8}\.json$/.test(n));
    expect(states).toHaveLength(1);
    expect(statSync(join(dir, "config", "state", states[0] as string)).mode & 0o777).toBe(0o600);

    // Nothing changed: the lookback is fetched again, and no file is touched.
    const before = snapshot(dir);
    const again = await run([...CRON], at("2026-11-02"));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/->/);
    expect(snapshot(dir)).toEqual(before);

    // A day restated inside the lookback: only its file is rewritten, and stderr says what changed.
    await restate(anHourOf("2026-10-31"));
    await restate(anHourOf("2026-10-22")); // outside the lookback: not seen
    const restated = await run([...CRON], at("2026-11-02"));
    expect(restated.code, restated.stderr).toBe(0);
    expect(restated.stderr).toMatch(
      /^adreport: 2026-10-31: spending [\d,.]+ -> [\d,.]+, conversions [\d,]+ -> [\d,]+$/m,
    );
    expect(restated.stderr).not.toMatch(/2026-10-22/);
    const after = snapshot(dir);
    for (const [name, file] of before) {
      if (name === "2026-10-31.csv") expect(after.get(name)?.text).not.toBe(file.text);
      else expect(after.get(name)).toEqual(file);
    }
    expect(after.get("2026-10-31.csv")?.text).toBe(await plainDay("2026-10-31", at("2026-11-02")));
    expect(after.get("2026-10-22.csv")?.text).not.toBe(await plainDay("2026-10-22", at("2026-11-02")));

    // The host was down three days: one run catches up.
    const later = await run([...CRON, "--lookback", "0d"], new Date(at("2026-11-02").getTime() + 3 * DAY));
    expect(later.code, later.stderr).toBe(0);
    expect(exports(dir)).toHaveLength(16);
    expect(exports(dir).at(-1)).toBe("2026-11-04.csv");
    // Nothing left to do: yesterday is exported and the lookback is 0d.
    const idle = await run([...CRON, "--lookback", "0d"], new Date(at("2026-11-02").getTime() + 3 * DAY));
    expect(idle.code, idle.stderr).toBe(0);
    expect(idle.stderr).toMatch(/nothing to do/);
    expect(temps(dir)).toEqual([]);
  });

  it("a failed run leaves the files and the state as they were; the next run completes", async () => {
    const { dir, run, restate, anHourOf, plainDay, reopen } = await newService();
    mkdirSync(join(dir, "out"));
    const first = await run([...CRON, "--start", "2026-10-25"], at("2026-10-30"));
    expect(first.code, first.stderr).toBe(0);
    const stateDir = join(dir, "config", "state");
    const stateName = readdirSync(stateDir).find((n) => /^[0-9a-f]{8}\.json$/.test(n)) as string;
    const state = readFileSync(join(stateDir, stateName), "utf8");
    const before = snapshot(dir);
    await restate(anHourOf("2026-10-28"));
    await reopen("reset-body:every3");
    const failed = await run([...CRON, "--page-size", "2", "--retries", "0"], at("2026-11-02"));
    expect(failed.code, failed.stderr).toBe(5);
    expect(failed.stderr).toMatch(/^adreport: /);
    expect(readFileSync(join(stateDir, stateName), "utf8")).toBe(state);
    expect(snapshot(dir)).toEqual(before);
    expect(temps(dir)).toEqual([]);
    await reopen();
    const next = await run([...CRON], at("2026-11-02"));
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/2026-10-28: spending/);
    for (const day of ["2026-10-28", "2026-11-01"]) {
      expect(readFileSync(join(dir, "out", `${day}.csv`), "utf8")).toBe(await plainDay(day, at("2026-11-02")));
    }
  });

  it("state list, show and reset; a second run of the same job refuses while the first holds the lock", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const [a, b] = await Promise.all([
      run([...CRON, "--start", "2026-10-25"], at("2026-11-02")),
      run([...CRON, "--start", "2026-10-25"], at("2026-11-02")),
    ]);
    const codes = [a.code, b.code].sort();
    // 75 (EX_TEMPFAIL): the job is busy, a cron wrapper may retry later; not 1, which says something failed.
    expect(codes).toEqual([0, 75]);
    const refused = a.code === 75 ? a : b;
    expect(refused.stderr).toMatch(/^adreport: another run of this job \([0-9a-f]{8}\) is under way: pid \d+ holds /);

    const list = await run(["state", "list"], at("2026-11-02"));
    expect(list.code, list.stderr).toBe(0);
    const id = /^([0-9a-f]{8})\s/m.exec(list.stdout)?.[1] as string;
    expect(list.stdout).toMatch(/2026-11-01/);
    expect(list.stdout).toMatch(/ok/);
    const show = await run(["state", "show", id], at("2026-11-02"));
    expect(show.code, show.stderr).toBe(0);
    // snake_case as state list and every record printed (was lastDay).
    expect(JSON.parse(show.stdout)).toMatchObject({
      id,
      last_day: "2026-11-01",
      job: { base_url: expect.any(String) },
    });

    // A stale lock (its pid is gone) is taken over; a live one refuses.
    const lock = join(dir, "config", "state", `${id}.lock`);
    writeFileSync(lock, "999999999\n");
    const stale = await run([...CRON], at("2026-11-02"));
    expect(stale.code, stale.stderr).toBe(0);
    expect(existsSync(lock)).toBe(false);

    const reset = await run(["state", "reset", id, "--from", "2026-10-28"], at("2026-11-02"));
    expect(reset.code, reset.stderr).toBe(0);
    const shown = JSON.parse((await run(["state", "show", id], at("2026-11-02"))).stdout);
    expect(shown.last_day).toBe("2026-10-27");
    const before = snapshot(dir);
    const redo = await run([...CRON, "--lookback", "0d", "--summary", "json"], at("2026-11-02"));
    expect(redo.code, redo.stderr).toBe(0);
    expect(JSON.parse(redo.stderr.trim().split("\n").at(-1) as string)).toMatchObject({
      from: "2026-10-28",
      days_written: 5,
    });
    expect(snapshot(dir).get("2026-10-27.csv")).toEqual(before.get("2026-10-27.csv"));

    const unknown = await run(["state", "show", "deadbeef"], at("2026-11-02"));
    expect(unknown.code).toBe(2);
  });
});

describe("report --incremental, stopped", () => {
  it("SIGTERM mid-way: exit 130, no file, no temporary file, no state, no lock", async () => {
    const { dir, start, reopen } = await newService();
    mkdirSync(join(dir, "out"));
    await reopen("delay:100ms");
    const running = start([...CRON, "--start", "2026-10-01", "--page-size", "2", "-v"], at("2026-11-02"));
    await running.waitFor("stderr", /GET .*page=2/);
    running.signal("SIGTERM");
    const result = await running.result;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toMatch(/^adreport: interrupted; out\/\{date\}\.csv was left as it was$/m);
    expect(readdirSync(join(dir, "out"))).toEqual([]);
    const state = join(dir, "config", "state");
    expect(existsSync(state) ? readdirSync(state).filter((n) => !n.endsWith(".run.json")) : []).toEqual([]);
  });
});

describe("{date} without --incremental, and refusals", () => {
  it("writes one file per day of the range, each as the plain export of that day", async () => {
    const { dir, run, plainDay } = await newService();
    mkdirSync(join(dir, "out"));
    const result = await run(
      ["report", "--dims", "campaign,date", "--from", "2026-10-01", "--to", "2026-10-05", "-o", "out/{date}.csv"],
      at("2026-11-02"),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(exports(dir)).toEqual(["01", "02", "03", "04", "05"].map((d) => `2026-10-${d}.csv`));
    expect(readFileSync(join(dir, "out", "2026-10-03.csv"), "utf8")).toBe(
      await plainDay("2026-10-03", at("2026-11-02")),
    );
    const monthly = await run(
      [
        "report",
        "--dims",
        "campaign,date",
        "--granularity",
        "month",
        "--from",
        "2026-09-01",
        "--to",
        "2026-10-31",
        "-o",
        "out/m-{date}.ndjson",
      ],
      at("2026-11-02"),
    );
    expect(monthly.code, monthly.stderr).toBe(0);
    expect(exports(dir).filter((n) => n.startsWith("m-"))).toEqual(["m-2026-09-01.ndjson", "m-2026-10-01.ndjson"]);
    const hourly = [
      "report",
      "--dims",
      "ad,date",
      "--granularity",
      "hour",
      "--from",
      "2026-10-02",
      "--to",
      "2026-10-03",
    ];
    const perDay = await run([...hourly, "-o", "out/h-{date}.csv"], at("2026-11-02"));
    expect(perDay.code, perDay.stderr).toBe(0);
    expect(exports(dir).filter((n) => n.startsWith("h-"))).toEqual(["h-2026-10-02.csv", "h-2026-10-03.csv"]);
    const whole = await run([...hourly, "-o", "-"], at("2026-11-02"));
    const [header, ...lines] = whole.stdout.trim().split("\n");
    const ofDay = (day: string) => [header, ...lines.filter((l) => l.includes(`,${day}T`))].join("\n");
    expect(readFileSync(join(dir, "out", "h-2026-10-03.csv"), "utf8").trim()).toBe(ofDay("2026-10-03"));
  });

  it("refuses what cannot work, with exit 2", async () => {
    const { run } = await newService();
    const now = at("2026-11-02");
    const cases: Array<[string[], RegExp]> = [
      [["report", "--dims", "campaign", "-o", "{date}.csv"], /needs date among the dimensions/],
      [
        ["report", "--dims", "campaign,date", "--incremental", "--start", "2026-10-01"],
        /--incremental needs an output/,
      ],
      [
        ["report", "--dims", "campaign,date", "--incremental", "--start", "2026-10-01", "-o", "x.csv"],
        /--incremental needs/,
      ],
      [["report", "--dims", "campaign,date", "--incremental", "-o", "{date}.csv"], /needs --start/],
      [["report", "--dims", "campaign,date", "--incremental", "--start", "2026-02-30", "-o", "{date}.csv"], /--start/],
      [
        [
          "report",
          "--dims",
          "campaign,date",
          "--incremental",
          "--lookback",
          "3",
          "--start",
          "2026-10-01",
          "-o",
          "{date}.csv",
        ],
        /--lookback/,
      ],
      [
        [
          "report",
          "--dims",
          "campaign,date",
          "--incremental",
          "--from",
          "-3d",
          "--start",
          "2026-10-01",
          "-o",
          "{date}.csv",
        ],
        /drop --from/,
      ],
      [["report", "--dims", "campaign,date", "--lookback", "3d", "-o", "{date}.csv"], /--incremental runs only/],
      [["report", "--dims", "campaign,date", "--from", "2026-10-01T12:00:00Z", "-o", "{date}.csv"], /whole days/],
      [["report", "--dims", "campaign,date", "--table", "t", "-o", "x.csv"], /--table applies/],
      [
        [
          "report",
          "--dims",
          "campaign,date",
          "--incremental",
          "--start",
          "2026-10-01",
          "-o",
          "{date}.csv",
          "--state-file",
          "/dev/null",
        ],
        /the state file \/dev\/null is not a regular file/,
      ],
    ];
    const noFolder = await run(["report", "--dims", "campaign,date", "-o", "nofolder/{date}.csv"], now);
    expect(noFolder.code, noFolder.stderr).toBe(2);
    expect(noFolder.stderr).toMatch(
      /^adreport: cannot write nofolder\/\{date\}\.csv: no such folder\nhint: create it first: mkdir -p nofolder\n$/m,
    );
    for (const [args, message] of cases) {
      const result = await run(args, now);
      expect(result.code, `${args.join(" ")}\n${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.split("\n")[0]).toMatch(/^adreport: /);
    }
  });
});
