/**
 * A job's plan derived from its state (engine/plan/for-job.ts), what `verify --repair` writes days with:
 * planned as the job's own `report --incremental` runs plan it, so that it is the same job. No server, no
 * file system (the look is a plain object).
 */
import { describe, expect, it } from "vitest";
import { jobIdentity } from "../../../../src/engine/days/incremental-job";
import { jobId } from "../../../../src/engine/days/job-id";
import { planForJob } from "../../../../src/engine/plan/for-job";
import type { JobState } from "../../../../src/state/store";
import { place, recordingLook, settingsOf } from "./plan-place";

function stateOf(job: Partial<JobState["job"]>, write?: JobState["write"]): JobState {
  const identity = {
    profile: "globex",
    baseUrl: "https://api.example",
    dimensions: ["campaign", "date"],
    metrics: ["views", "clicks"],
    granularity: "day",
    campaignId: 7,
    adId: null,
    target: { kind: "files", template: "/work/exports/days/{date}.csv" },
    ...job,
  };
  return { version: 1, id: jobId(identity), job: identity, lastDay: "2026-10-20", days: {}, ...(write && { write }) };
}

const CSV = { format: "csv", delimiter: ";", bom: true, spreadsheet: false } as const;

/** The job's settings as verify loads them (verify/job-settings.ts): its profile, its service, its files' CSV. */
function jobSettings(env: Record<string, string> = {}) {
  const flags = { "base-url": "https://api.example", format: "csv", delimiter: ";", spreadsheet: false };
  return settingsOf("globex", env, flags);
}

describe("planForJob", () => {
  it("day files: the job's query, template and format; the identity its runs have", async () => {
    const state = stateOf({}, CSV);
    const look = recordingLook();
    const at = place(look);
    const plan = await planForJob(state, jobSettings(), at, { stateFile: "/s/job.json", quiet: true });
    expect(plan.output).toMatchObject({ kind: "target", template: "/work/exports/days/{date}.csv" });
    expect(plan.write?.format.entry.name).toBe("csv");
    expect(plan.write?.options).toMatchObject({ delimiter: ";", bom: true, spreadsheet: false });
    expect(plan.request.request).toMatchObject({ dimensions: ["campaign", "date"], metrics: ["views", "clicks"] });
    expect(plan.request.request.campaignId).toBe(7);
    expect(plan.incremental).toMatchObject({ stateFile: "/s/job.json", stateFolder: at.stateFolder });
    expect(plan.quiet).toBe(true);
    expect(plan.apiKey).toBe("adr_profile_globex_key_00");
    expect(jobIdentity(plan.settings, plan.request.request, plan.output, state.job.baseUrl)).toEqual(state.job);
    expect(look.asked).toEqual(["folder /work/exports/days/{date}.csv"]);
    expect(plan.warnings).toEqual([]);
    expect(Object.isFrozen(plan)).toBe(true);
  });

  it("a SQLite table: the job's file and table", async () => {
    const state = stateOf({
      target: { kind: "sqlite", path: "/work/exports/ads.db", table: "daily" },
      campaignId: null,
    });
    const plan = await planForJob(state, jobSettings(), place());
    expect(plan.output).toMatchObject({
      kind: "target",
      target: { kind: "sqlite", path: "/work/exports/ads.db", table: "daily" },
    });
    expect(plan.write).toBeUndefined();
    expect(jobIdentity(plan.settings, plan.request.request, plan.output, state.job.baseUrl)).toEqual(state.job);
  });

  it("a PostgreSQL table: the URL --db gives, with its password, for the database the job names", async () => {
    const state = stateOf({
      target: { kind: "postgres", where: "postgres://u@db.example:5432/ads", table: "daily" },
      campaignId: null,
    });
    const plan = await planForJob(state, jobSettings(), place(), { db: "postgres://u:secret@db.example:5432/ads" });
    expect(plan.output).toMatchObject({ kind: "target", given: "postgres://u:secret@db.example:5432/ads" });
    expect(jobIdentity(plan.settings, plan.request.request, plan.output, state.job.baseUrl)).toEqual(state.job);
    await expect(planForJob(state, jobSettings(), place(), { db: "postgres://u@other.example/ads" })).rejects.toThrow(
      "--output names another database than the job's",
    );
  });

  it("ADREPORT_TZ set aside: said once as planning finds it, and held once by the plan", async () => {
    const at = place();
    const plan = await planForJob(stateOf({}, CSV), jobSettings({ ADREPORT_TZ: "Europe/Berlin" }), at);
    const warning =
      'the time zone "Europe/Berlin" (environment) is not used: {date} in --output keeps the service\'s UTC days';
    expect(plan.warnings).toEqual([warning]);
    expect(at.said).toEqual([warning]);
  });

  it("the folder of its day files gone: refused with the mkdir that mends it, the warning said first", async () => {
    const template = "/work/exports/days/{date}.csv";
    const look = recordingLook({
      [template]: { target: template, folder: "/work/exports/days", problem: "no such folder" },
    });
    const at = place(look);
    const planned = planForJob(stateOf({}, CSV), jobSettings({ ADREPORT_TZ: "Europe/Berlin" }), at);
    await expect(planned).rejects.toThrow("cannot write /work/exports/days/{date}.csv: no such folder");
    expect(at.said).toHaveLength(1);
  });
});
