/**
 * An account's plan derived from its run's base (engine/plan/for-account.ts): plan in, plan out, no server,
 * no file system (the look is a plain object). The run's warnings are said once by the run: an account's
 * plan holds only those its own planning found.
 */
import { describe, expect, it } from "vitest";
import { AuthError } from "../../../../src/core/errors";
import { type BasePlan, planForAccount } from "../../../../src/engine/plan/for-account";
import { NOW, place, recordingLook, settingsOf } from "./plan-place";

const GRANULARITY = "--granularity week does nothing without date in --dims (the service ignores it)";

function base(words: BasePlan["words"], overrides: Partial<BasePlan> = {}): BasePlan {
  return { now: NOW, words: Object.freeze(words), warnings: [], merged: undefined, ...overrides };
}

describe("planForAccount: an account's own output", () => {
  const run = base(
    {
      from: "2026-10-18",
      to: "2026-10-24",
      dimensions: "campaign",
      granularity: "week",
      output: "out/{profile}-{from}-{to}.csv",
      record: "rec",
      split: true,
    },
    { warnings: [GRANULARITY] },
  );

  it("names its file with its profile and its own zone's days, sends its key, records in DIR/<profile>, quietly", async () => {
    const look = recordingLook();
    const at = place(look);
    const plan = await planForAccount(run, { profile: "acme", settings: settingsOf("acme") }, at);
    if (plan.kind !== "export") throw new Error(`an export, not ${plan.kind}`);
    expect(plan.output).toEqual({ kind: "file", template: "out/acme-{from}-{to}.csv" });
    expect(plan.path).toBe("out/acme-2026-10-18-2026-10-24.csv");
    expect(plan.request.zone.name).toBe("Europe/Berlin");
    expect(plan.request.request.from).toBe("2026-10-17T22:00:00Z");
    expect(plan.apiKey).toBe("adr_profile_acme_key_0000");
    expect(plan.record).toBe("rec/acme");
    expect(plan.quiet).toBe(true);
    expect(plan.now).toBe(NOW);
    // Its own settings: acme's delimiter.
    expect(plan.write.options.delimiter).toBe(";");
    expect(look.asked).toEqual([
      "check out/acme-2026-10-18-2026-10-24.csv",
      "folder out/acme-2026-10-18-2026-10-24.csv",
      "stream out/acme-2026-10-18-2026-10-24.csv",
    ]);
    // The run's warning (its words') is the base's: neither said again nor held by the account's plan.
    expect(plan.warnings).toEqual([]);
    expect(at.said).toEqual([]);
    expect(Object.isFrozen(plan)).toBe(true);
  });

  it("another account of the same base: its own zone (UTC), its own file, the base unchanged", async () => {
    const plan = await planForAccount(run, { profile: "globex", settings: settingsOf("globex") }, place());
    if (plan.kind !== "export") throw new Error(`an export, not ${plan.kind}`);
    expect(plan.path).toBe("out/globex-2026-10-18-2026-10-24.csv");
    expect(plan.request.request.from).toBe("2026-10-18");
    expect(plan.apiKey).toBe("adr_profile_globex_key_00");
    expect(run.words.output).toBe("out/{profile}-{from}-{to}.csv");
    expect(run.words.record).toBe("rec");
  });

  it("an account without a key is refused alone, as its run would be", async () => {
    const refused = planForAccount(run, { profile: "nokey", settings: settingsOf("nokey") }, place());
    await expect(refused).rejects.toBeInstanceOf(AuthError);
    await expect(refused).rejects.toThrow("no API key: profile nokey has none");
  });

  it("a folder gone since the run was planned: refused, or held for --dry-run to show", async () => {
    const problem = { target: "out/acme-2026-10-18-2026-10-24.csv", folder: "out", problem: "no such folder" } as const;
    const look = recordingLook({ [problem.target]: problem });
    const account = { profile: "acme", settings: settingsOf("acme") };
    await expect(planForAccount(run, account, place(look))).rejects.toThrow("cannot write out/acme-");
    const dry = base({ ...run.words, dryRun: true }, { warnings: run.warnings });
    expect((await planForAccount(dry, account, place(look))).folder).toEqual(problem);
  });
});

describe("planForAccount: rows spooled for the output every account shares", () => {
  it("JSON into its spool file whatever the output's format, its counters kept for a table that sums them", async () => {
    const words = { dimensions: "campaign", metrics: "clicks,ctr", bom: true, delimiter: ";", split: true } as const;
    const bom = "--bom applies to CSV only; the table output has no byte-order mark";
    const run = base(words, { merged: "table", warnings: [bom] });
    const at = place();
    const account = { profile: "globex", settings: settingsOf("globex"), spoolFile: "/tmp/spool/1.json" };
    const plan = await planForAccount(run, account, at);
    if (plan.kind !== "export") throw new Error(`an export, not ${plan.kind}`);
    expect(plan.path).toBe("/tmp/spool/1.json");
    expect(plan.write.format.entry.name).toBe("json");
    expect(plan.write.options.bom).toBe(false);
    expect(plan.shape.metrics.keepCounters).toBe(true);
    expect(plan.warnings).toEqual([]);
    expect(at.said).toEqual([]);
  });

  it("merged into NDJSON: nothing summed later, no counters kept", async () => {
    const run = base({ dimensions: "campaign", metrics: "clicks,ctr", split: true }, { merged: "ndjson" });
    const account = { profile: "globex", settings: settingsOf("globex"), spoolFile: "/tmp/spool/0.json" };
    const plan = await planForAccount(run, account, place());
    if (plan.kind !== "export") throw new Error(`an export, not ${plan.kind}`);
    expect(plan.shape.metrics.keepCounters).toBe(false);
  });
});

describe("planForAccount: whole days", () => {
  const words = {
    from: "2026-10-20",
    to: "2026-10-24",
    dimensions: "campaign,date",
    output: "days/{profile}-{date}.csv",
    split: true,
  };
  const zoneSetAside =
    'the time zone "Europe/Berlin" (environment) is not used: {date} in --output keeps the service\'s UTC days';

  it("a warning only the account's planning finds is said and held once, by its plan", async () => {
    const at = place();
    const settings = settingsOf("globex", { ADREPORT_TZ: "Europe/Berlin" });
    const plan = await planForAccount(base(words), { profile: "globex", settings }, at);
    if (plan.kind !== "days") throw new Error(`whole days, not ${plan.kind}`);
    expect(plan.output).toMatchObject({ kind: "target", template: "days/globex-{date}.csv" });
    expect(plan.warnings).toEqual([zoneSetAside]);
    expect(at.said).toEqual([zoneSetAside]);
  });

  it("the same warning in the base (the run said it): neither said nor held again", async () => {
    const at = place();
    const settings = settingsOf("globex", { ADREPORT_TZ: "Europe/Berlin" });
    const plan = await planForAccount(base(words, { warnings: [zoneSetAside] }), { profile: "globex", settings }, at);
    expect(plan.warnings).toEqual([]);
    expect(at.said).toEqual([]);
  });

  it("a table every account shares: the same target, each account's own key", async () => {
    const table = base({ ...words, output: "sqlite:all.db" });
    const [acme, globex] = await Promise.all(
      ["acme", "globex"].map((profile) => planForAccount(table, { profile, settings: settingsOf(profile) }, place())),
    );
    expect(acme?.output).toEqual(globex?.output);
    expect(acme?.output).toMatchObject({
      kind: "target",
      target: { kind: "sqlite", path: "/work/exports/all.db", table: "adreport_campaign_date" },
    });
    expect([acme?.apiKey, globex?.apiKey]).toEqual(["adr_profile_acme_key_0000", "adr_profile_globex_key_00"]);
  });
});
