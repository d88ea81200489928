/**
 * The job store adreport has (files in the state folder, engine/days/job-stores.ts): a state an earlier
 * adreport wrote, its target as one text, reads as its kind's data and keeps its job's id; written again,
 * it is kept as data; the jobs writing a target are found in either shape; a lock beside the job's.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jobId } from "../../../src/engine/days/job-id";
import { jobStore } from "../../../src/engine/days/job-stores";
import { sameTarget } from "../../../src/targets/registry";
import { tempDir } from "../../helpers/temp";

const JOB = {
  profile: "acme",
  baseUrl: "https://ads.example/",
  dimensions: ["campaign", "date"],
  metrics: ["views", "spending"],
  granularity: "day",
  campaignId: null,
  adId: 7,
};

/** A state as main's adreport wrote it: the target one text. */
function earlierState(id: string, target: string): string {
  const days = { "2026-11-01": { rows: 2, sums: { views: 10, spending: 1_500_000 } } };
  return `${JSON.stringify({ version: 1, id, job: { ...JOB, target }, lastDay: "2026-11-01", days }, null, 2)}\n`;
}

describe("the files job store", () => {
  it("reads an earlier state's text target as data, keeps its id, writes it back as data", async () => {
    const folder = tempDir();
    const store = jobStore();
    const paths = store.pathsInFolder(folder, "618e7312");
    writeFileSync(paths.state, earlierState("618e7312", "sqlite:/w/ads.db#ads"), { mode: 0o600 });
    const state = await store.read(paths, undefined);
    expect(state?.job.target).toEqual({ kind: "sqlite", path: "/w/ads.db", table: "ads" });
    expect(jobId(state?.job as NonNullable<typeof state>["job"])).toBe("618e7312");

    await store.write(paths, state as NonNullable<typeof state>);
    expect(JSON.parse(readFileSync(paths.state, "utf8")).job.target).toEqual({
      kind: "sqlite",
      path: "/w/ads.db",
      table: "ads",
    });
    expect(await store.read(paths, undefined)).toEqual(state);
  });

  it("refuses a state whose target no kind writes, as main did", async () => {
    const folder = tempDir();
    const paths = jobStore().pathsInFolder(folder, "0000000a");
    writeFileSync(paths.state, earlierState("0000000a", "/w/out.csv"), { mode: 0o600 });
    await expect(jobStore().read(paths, undefined)).rejects.toThrow(
      `the state file ${paths.state} is not in adreport's shape: its output is neither {date} files nor a table`,
    );
  });

  it("finds the jobs writing a target, whichever shape their state keeps it in", async () => {
    const folder = tempDir();
    const store = jobStore();
    writeFileSync(join(folder, "0000000a.json"), earlierState("0000000a", "/w/out/{date}.csv"), { mode: 0o600 });
    writeFileSync(join(folder, "0000000b.json"), earlierState("0000000b", "/w/other/{date}.csv"), { mode: 0o600 });
    const later = JSON.parse(earlierState("0000000c", ""));
    later.job.target = { kind: "files", template: "/w/out/{date}.csv" };
    writeFileSync(join(folder, "0000000c.json"), JSON.stringify(later, null, 2), { mode: 0o600 });
    const target = { kind: "files", template: "/w/out/{date}.csv" };
    const found = await store.writing(folder, undefined, target, (t) => sameTarget(t, target));
    expect(found.map((s) => s.id).sort()).toEqual(["0000000a", "0000000c"]);
    const listed = await store.list(folder, undefined, () => undefined);
    expect(listed.map((s) => s.id)).toEqual(["0000000a", "0000000b", "0000000c"]);
  });

  it("takes a lock beside the job's, refused while it is held", async () => {
    const paths = jobStore().pathsInFolder(tempDir(), "0000000a");
    const first = await jobStore().lock(paths, "output-1a2b3c4d");
    expect(first.ok).toBe(true);
    expect(first.path).toBe(join(paths.lock, "..", "output-1a2b3c4d.lock"));
    const second = await jobStore().lock(paths, "output-1a2b3c4d");
    expect(second.ok).toBe(false);
    if (first.ok) await first.release();
  });
});
