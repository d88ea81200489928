/**
 * The target kinds (targets/registry.ts): each reads its -o into the target a job keeps, whose text is the
 * one earlier builds kept (and hashed into the job's id), and reads that text back; a state's target is
 * read in either shape, and a job's id is the one main's build gave it (the ids below are main's).
 */
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/core/errors";
import { earlierJobId, jobId } from "../../../src/engine/days/job-id";
import { parseOutputSpec } from "../../../src/engine/plan/output-spec";
import { targetSpecOfJob } from "../../../src/engine/verify/job-target";
import type { JobIdentity, JobTarget } from "../../../src/state/job";
import { kindOf, kindOfOutput, readTarget, TARGET_KINDS, targetText } from "../../../src/targets/registry";

const CWD = "/w";

const KINDS: Array<{ output: string; table?: string; target: JobTarget; text: string; id: string; earlier?: string }> =
  [
    {
      output: "out/{date}.csv",
      target: { kind: "files", template: "/w/out/{date}.csv" },
      text: "/w/out/{date}.csv",
      id: "089a2c0a",
    },
    {
      output: "sqlite:ads.db",
      table: "ads",
      target: { kind: "sqlite", path: "/w/ads.db", table: "ads" },
      text: "sqlite:/w/ads.db#ads",
      id: "618e7312",
      earlier: "37e71ef3",
    },
    {
      output: "duckdb:ads.duckdb",
      table: "ads",
      target: { kind: "duckdb", path: "/w/ads.duckdb", table: "ads" },
      text: "duckdb:/w/ads.duckdb#ads",
      id: "7d3c9e7e",
      earlier: "cde5ad35",
    },
    {
      output: "postgres://u:secret@h:5432/db?sslpassword=x",
      table: "ads",
      target: { kind: "postgres", where: "postgres://u@h:5432/db", table: "ads" },
      text: "postgres://u@h:5432/db#ads",
      id: "08469368",
      earlier: "15551897",
    },
  ];

function identity(target: JobTarget): JobIdentity {
  return {
    profile: "acme",
    baseUrl: "https://ads.example/",
    dimensions: ["campaign", "date"],
    metrics: ["views", "spending"],
    granularity: "day",
    campaignId: null,
    adId: 7,
    target,
  };
}

describe("each target kind", () => {
  it.for(KINDS)("$output: parsed, kept as data, its text and id as main's", (c) => {
    const spec = parseOutputSpec({ output: c.output, table: c.table, dimensions: "campaign,date" }, CWD);
    if (spec.kind !== "target") throw new Error(`not a target: ${spec.kind}`);
    expect(spec.target).toEqual(c.target);
    expect(spec.given).toBe(c.output.replace(/^(sqlite|duckdb):/, ""));
    expect(targetText(spec.target)).toBe(c.text);
    // Kept as JSON in a state, and as text by an earlier adreport: both read back as the same target.
    expect(readTarget(JSON.parse(JSON.stringify(spec.target)))).toEqual(c.target);
    expect(readTarget(c.text)).toEqual(c.target);
    expect(jobId(identity(spec.target))).toBe(c.id);
    expect(earlierJobId(identity(spec.target))).toBe(c.earlier);
    expect(kindOfOutput(c.output)).toBe(kindOf(spec.target));
    // Planned again from the job's state (verify --repair): the same target.
    const state = { version: 1 as const, id: c.id, job: identity(spec.target), lastDay: "2026-11-01", days: {} };
    expect(targetSpecOfJob(state, undefined, "/elsewhere").target).toEqual(c.target);
  });

  it("are each registered once, by a name of their own", () => {
    const names = TARGET_KINDS.map((kind) => kind.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(["sqlite", "duckdb", "postgres", "files"]);
  });

  it("say --dry-run's words as main did", () => {
    const words = (output: string) => {
      const spec = parseOutputSpec({ output, dimensions: "campaign,date" }, CWD);
      if (spec.kind !== "target") throw new Error("not a target");
      return kindOf(spec.target).describe(spec);
    };
    expect(words("out/{date}.csv")).toEqual({
      words: "one file per date bucket, out/{date}.csv",
      json: { kind: "days", template: "out/{date}.csv" },
    });
    expect(words("sqlite:ads.db")).toEqual({
      words: "table adreport_campaign_date in sqlite:ads.db",
      json: { kind: "sqlite", database: "ads.db", table: "adreport_campaign_date" },
    });
    expect(words("duckdb:ads.duckdb")).toEqual({
      words: "table adreport_campaign_date in duckdb:ads.duckdb",
      json: { kind: "duckdb", database: "ads.duckdb", table: "adreport_campaign_date" },
    });
    expect(words("postgres://u:pw@h/db")).toEqual({
      words: "table adreport_campaign_date in postgres://u:***@h/db",
      json: { kind: "postgres", database: "postgres://u:***@h/db", table: "adreport_campaign_date" },
    });
  });
});

describe("a state's target", () => {
  it.for([
    ["a file without {date}", "/w/out.csv"],
    ["a table's text without its table", "sqlite:/w/ads.db"],
    ["an unknown kind", { kind: "bigquery", path: "/w/ads.duckdb", table: "t" }],
    ["a kind's data with a field missing", { kind: "sqlite", path: "/w/ads.db" }],
    ["a template without {date}", { kind: "files", template: "/w/out.csv" }],
    ["no target at all", 42],
    ["null", null],
  ] as const)("%s: no kind's", ([, value]) => {
    expect(readTarget(value)).toBeUndefined();
  });

  it("keeps its kind's fields only", () => {
    expect(readTarget({ kind: "files", template: "/w/{date}.csv", extra: "x" })).toEqual({
      kind: "files",
      template: "/w/{date}.csv",
    });
  });

  it("a table's name is the text after the last #", () => {
    expect(readTarget("sqlite:/w/a#b.db#t")).toEqual({ kind: "sqlite", path: "/w/a#b.db", table: "t" });
  });
});

describe("-o refused as main refused it", () => {
  it.for([
    [
      { output: "out/{date}.csv", table: "t" },
      "--table applies to database targets only (sqlite:PATH, duckdb:PATH, postgres://...)",
    ],
    [
      { output: "out.csv", table: "t" },
      "--table applies to database targets only (sqlite:PATH, duckdb:PATH, postgres://...)",
    ],
    [{ output: "sqlite:" }, "--output sqlite:PATH needs the database file's path"],
    [
      { output: "sqlite:a.db", table: "no-dash" },
      '--table: "no-dash" is not a table name (letters, digits and _, at most 63)',
    ],
    [{ output: "d/{date}-{to}.csv" }, "--output: {date} names one file per day; it does not go with {from} or {to}"],
    [{ output: "out.csv", incremental: true }, "--incremental needs an output it can rewrite day by day"],
  ] as const)("%j", ([words, message]) => {
    const refused = (() => {
      try {
        parseOutputSpec(words, CWD);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as Error).message).toContain(message);
  });
});
