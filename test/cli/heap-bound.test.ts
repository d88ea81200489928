/**
 * The heap bound of exports and `serve` (src/cli/memory.ts), in a process of its own since V8's flags are the
 * process's. Issue 35: the young generation held at 2 x 2 MB made every young collection copy the page in
 * flight four times as often: a 1M-row CSV export took 1.75x the CPU of one without the bound.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { heapKindOf } from "../../src/cli/memory";

const MB = 1024 * 1024;

/** The largest young generation (both halves) V8 reached under that bound, in a child allocating as an export. */
function largestYoung(kind: "export" | "accounts" | "serve"): number {
  const script = join(__dirname, "..", "helpers", "heap-bound-child.ts");
  const run = spawnSync(process.execPath, ["--import", "tsx", script, kind], { encoding: "utf8" });
  expect(run.stderr).toBe("");
  return (JSON.parse(run.stdout) as { largest: number }).largest;
}

describe("the heap bound", () => {
  it("lets an export's young generation grow to 2 x 8 MB and no further (V8's own limit is 2 x 16 MB)", () => {
    const largest = largestYoung("export");
    expect(largest).toBeGreaterThanOrEqual(16 * MB);
    expect(largest).toBeLessThan(32 * MB);
  });

  it("keeps a run over several accounts at 2 x 2 MB, as its peak against one account's was measured", () => {
    expect(largestYoung("accounts")).toBe(4 * MB);
  });
  it("is the accounts' bound for report --profiles and --all-profiles, the export's for one account", () => {
    expect(heapKindOf(["report"], {})).toBe("export");
    expect(heapKindOf(["report"], { profiles: ["acme", "globex"] })).toBe("accounts");
    expect(heapKindOf(["report"], { allProfiles: true })).toBe("accounts");
    expect(heapKindOf(["serve", "start"], {})).toBe("serve");
  });
  it("keeps serve's at 2 x 2 MB, as its memory bound was measured", () => {
    expect(largestYoung("serve")).toBe(4 * MB);
  });
});
