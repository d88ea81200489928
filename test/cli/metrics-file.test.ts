/**
 * `--metrics-file`: the run's figures for node_exporter's textfile collector, checked by Prometheus's own
 * `promtool check metrics` (skipped with its reason where promtool is missing, unless ADREPORT_TEST_REQUIRE
 * names it). The CLI runs as a process (the file is written on its way out) against `serve`; a restated
 * day is checked in the OpenTelemetry it sends as well (test/helpers/otlp-receiver.ts).
 */
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../helpers/config";
import { ACME_KEY, startDemoService } from "../helpers/demo-service";
import { newService } from "../helpers/incremental";
import { startOtlpReceiver } from "../helpers/otlp-receiver";
import { promtoolMissing, promtoolPath, skipMissing } from "../helpers/required-tools";
import { runCli } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const demo = await startDemoService({ keys: [ACME_KEY, { advertiser: "Globex, Inc.", ips: ["127.0.0.1"] }] });
const [ACME, GLOBEX] = demo.service.keys as [string, string];

/** The samples of an exposition text, by series (`name{labels}`). */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

function promtoolCheck(context: { skip(note?: string): never }, text: string): void {
  const missing = promtoolMissing();
  if (missing !== undefined) skipMissing(context, "promtool", missing);
  const checked = spawnSync(promtoolPath(), ["check", "metrics"], { input: text, encoding: "utf8" });
  expect(checked.stdout + checked.stderr).toBe("");
  expect(checked.status).toBe(0);
}

describe("--metrics-file", () => {
  it("writes an incremental job's figures per job ({job}), as --summary json says them; a failed run keeps the newest day", async (context) => {
    const dir = tempDir();
    mkdirSync(join(dir, "out"));
    mkdirSync(join(dir, "textfile"));
    const args = [
      "report",
      "--dims",
      "campaign,date",
      "-o",
      "out/{date}.csv",
      "--incremental",
      "--start",
      "2026-10-20",
      "--metrics-file",
      "textfile/adreport-{job}.prom",
      "--summary",
      "json",
    ];
    const first = await runCli(args, { cwd: dir, env: demo.env });
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stderr.trim().split("\n").at(-1) ?? "{}") as Record<string, number | string>;
    const files = readdirSync(join(dir, "textfile"));
    expect(files).toEqual([`adreport-${summary.job}.prom`]);
    const text = readFileSync(join(dir, "textfile", files[0] as string), "utf8");
    const labels = `{job="${summary.job}"}`;
    const figures = samples(text);
    expect(figures.get(`adreport_last_run_success${labels}`)).toBe(1);
    expect(figures.get(`adreport_last_run_rows${labels}`)).toBe(summary.rows);
    expect(figures.get(`adreport_last_run_requests${labels}`)).toBe(summary.requests);
    expect(figures.get(`adreport_last_run_throttled_requests${labels}`)).toBe(summary.throttled);
    expect(figures.get(`adreport_last_run_dates_written${labels}`)).toBe(summary.days_written);
    // The newest day with rows (the demo data ends on 2026-10-31), not the end of the range the job fetched
    // (yesterday): freshness on the data, never on the time of the load.
    expect(String(summary.to) > "2026-11-01").toBe(true);
    expect(figures.get(`adreport_newest_day_timestamp_seconds${labels}`)).toBe(Date.parse("2026-10-31") / 1000);
    expect(figures.get(`adreport_last_run_bytes${labels}`)).toBeGreaterThan(0);
    // Nothing but the file: its temporary file was renamed over it.
    expect(readdirSync(join(dir, "textfile"))).toEqual(files);

    // The next morning's run fetches only its lookback, whose days hold no rows: it ends well, and the
    // newest day in the data stays where it was.
    const quiet = await runCli(args, { cwd: dir, env: demo.env });
    expect(quiet.code, quiet.stderr).toBe(0);
    const next = samples(readFileSync(join(dir, "textfile", files[0] as string), "utf8"));
    expect(next.get(`adreport_last_run_success${labels}`)).toBe(1);
    expect(next.get(`adreport_newest_day_timestamp_seconds${labels}`)).toBe(Date.parse("2026-10-31") / 1000);

    // The key refused: the run fails before it knows its job, and the job's series stay, failed.
    const failed = await runCli(args, { cwd: dir, env: { ...demo.env, ADREPORT_API_KEY: "ak_live_nope" } });
    expect(failed.code).toBe(3);
    const after = samples(readFileSync(join(dir, "textfile", files[0] as string), "utf8"));
    expect(after.get(`adreport_last_run_success${labels}`)).toBe(0);
    expect(after.get(`adreport_newest_day_timestamp_seconds${labels}`)).toBe(
      figures.get(`adreport_newest_day_timestamp_seconds${labels}`),
    );
    expect(after.get(`adreport_last_success_timestamp_seconds${labels}`)).toBe(
      next.get(`adreport_last_success_timestamp_seconds${labels}`),
    );
    promtoolCheck(context, text);
    promtoolCheck(context, readFileSync(join(dir, "textfile", files[0] as string), "utf8"));
  });

  it("a run over several profiles: one series per profile in one file, or one file each with {profile}", async (context) => {
    const dir = tempDir();
    const config = configDirWith(
      {},
      {
        acme: { "api-key": ACME, "base-url": demo.service.url },
        "globex.eu": { "api-key": GLOBEX, "base-url": demo.service.url },
      },
    );
    const env = { ADREPORT_CONFIG_DIR: config };
    const range = ["--from", "2026-10-01", "--to", "2026-10-31", "--dims", "campaign", "-o", "{profile}.csv"];
    const one = await runCli(["report", "--all-profiles", ...range, "--metrics-file", "all.prom", "-q"], {
      cwd: dir,
      env,
    });
    expect(one.code, one.stderr).toBe(0);
    const text = readFileSync(join(dir, "all.prom"), "utf8");
    const figures = samples(text);
    expect(figures.get('adreport_last_run_success{profile="acme"}')).toBe(1);
    expect(figures.get('adreport_last_run_success{profile="globex.eu"}')).toBe(1);
    expect(figures.get('adreport_newest_day_timestamp_seconds{profile="acme"}')).toBe(Date.parse("2026-10-31") / 1000);
    expect([...figures.keys()].filter((series) => !series.includes("profile="))).toEqual([]);
    mkdirSync(join(dir, "m"));
    const each = await runCli(["report", "--all-profiles", ...range, "--metrics-file", "m/{profile}.prom", "-q"], {
      cwd: dir,
      env,
    });
    expect(each.code, each.stderr).toBe(0);
    expect(readdirSync(join(dir, "m")).sort()).toEqual(["acme.prom", "globex.eu.prom"]);
    promtoolCheck(context, text);
  });

  it("a restated day: counted in the file and an event on the account's span", async () => {
    const { dir, env, restate, anHourOf } = await newService();
    mkdirSync(join(dir, "out"));
    const receiver = await startOtlpReceiver();
    const args = [
      "report",
      "--dims",
      "campaign,date",
      "-o",
      "out/{date}.csv",
      "--incremental",
      "--start",
      "2026-10-25",
    ];
    const first = await runCli([...args, "--lookback", "40d"], { cwd: dir, env });
    expect(first.code, first.stderr).toBe(0);
    await restate(anHourOf("2026-10-31"));
    const again = await runCli([...args, "--lookback", "40d", "--metrics-file", "m.prom"], {
      cwd: dir,
      env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^adreport: 2026-10-31: /m);
    const figures = samples(readFileSync(join(dir, "m.prom"), "utf8"));
    const restated = [...figures].find(([series]) => series.startsWith("adreport_last_run_dates_restated{"));
    expect(restated?.[1]).toBe(1);
    const account = receiver.received.spans.find((s) => s.name === "account");
    expect(account?.events.filter((e) => e.name === "day.restated").map((e) => e.attributes["adreport.day"])).toEqual([
      "2026-10-31",
    ]);
    const points = receiver.received.points.filter((p) => p.metric === "adreport.days.restated");
    expect(points.map((p) => p.value)).toEqual([1]);
  });

  it("a folder that is not there: a warning naming the file, the run's own exit code", async () => {
    const dir = tempDir();
    const result = await runCli(
      [
        "report",
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-31",
        "--dims",
        "campaign",
        "--metrics-file",
        "nowhere/x.prom",
      ],
      { cwd: dir, env: demo.env },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "adreport: warning: could not write --metrics-file nowhere/x.prom: no such file or folder\n",
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a named pipe: a warning and the run's exit code, neither a run that waits forever on it nor the pipe replaced", async () => {
    const dir = tempDir();
    spawnSync("mkfifo", [join(dir, "x.prom")]);
    const result = await runCli(
      ["report", "--from", "2026-10-01", "--to", "2026-10-31", "--dims", "campaign", "--metrics-file", "x.prom"],
      { cwd: dir, env: demo.env },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "adreport: warning: could not write --metrics-file x.prom: it is a named pipe (FIFO), not a file to replace\n",
    );
    expect(lstatSync(join(dir, "x.prom")).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(["x.prom"]);
  }, 15_000);
});
