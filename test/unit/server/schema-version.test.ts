/**
 * What schema_info says of a database (sql/schema-version.ts), and what `serve upgrade` runs for it: the
 * counters a database holds against the counter table (model/counters.ts).
 */
import { describe, expect, it } from "vitest";
import { COUNTERS } from "../../../src/server/model/counters";
import { POSTGRES_DIALECT, SQLITE_DIALECT } from "../../../src/server/sql/dialect";
import { SCHEMA_VERSION, schemaState, upgradeStatements } from "../../../src/server/sql/schema-version";
import { schemaRefusal } from "../../../src/server/store/schema-refusal";

const ALL = "views,clicks,bot_clicks,conversions,spending_micros";
const rows = (info: Record<string, string>) => Object.entries(info).map(([key, value]) => ({ key, value }));

describe("schemaState", () => {
  it.each([
    [{}, { kind: "foreign" }],
    [{ version: "0" }, { kind: "foreign" }],
    [{ version: "01" }, { kind: "foreign" }],
    [{ version: "two" }, { kind: "foreign" }],
    [{ version: "" }, { kind: "foreign" }],
    [{ version: "1" }, { kind: "older", version: 1, missing: [] }],
    [{ version: "2", counters: ALL }, { kind: "current" }],
    [
      { version: "2", counters: "views,clicks,bot_clicks,spending_micros" },
      { kind: "older", version: 2, missing: ["conversions"] },
    ],
    [
      { version: "2", counters: `${ALL},reach` },
      { kind: "newer", version: 2, unknown: ["reach"] },
    ],
    [
      { version: "3", counters: ALL },
      { kind: "newer", version: 3, unknown: [] },
    ],
  ])("%j is %j", (info, state) => {
    expect(schemaState(rows(info))).toEqual(state);
  });

  it("holds the counters of the table, in its order, in a database made now", () => {
    expect(COUNTERS.map((c) => c.column).join(",")).toBe(ALL);
    expect(SCHEMA_VERSION).toBe(2);
  });
});

describe("upgradeStatements", () => {
  it("records version 1's counters, then the version", () => {
    expect(upgradeStatements({ version: 1, missing: [] }, SQLITE_DIALECT)).toEqual([
      `INSERT INTO schema_info (key, value) VALUES ('counters', '${ALL}')`,
      "UPDATE schema_info SET value = '2' WHERE key = 'version'",
      `UPDATE schema_info SET value = '${ALL}' WHERE key = 'counters'`,
    ]);
  });

  it("adds a missing counter to each table of counts that holds it, in the dialect's type", () => {
    const added = upgradeStatements({ version: 2, missing: ["conversions"] }, POSTGRES_DIALECT).filter((s) =>
      s.startsWith("ALTER"),
    );
    expect(added).toEqual(
      ["ad_hours", "ad_days", "campaign_days", "campaign_hours"].map(
        (t) => `ALTER TABLE ${t} ADD COLUMN conversions bigint NOT NULL DEFAULT 0`,
      ),
    );
  });
});

describe("schemaRefusal", () => {
  it("names the command that upgrades an older database, as a shell word", () => {
    const refusal = schemaRefusal({ kind: "older", version: 1, missing: [] }, "my data.db");
    expect(refusal?.message).toBe("my data.db holds serve's data in schema version 1; this adreport reads version 2");
    expect(refusal?.hint).toBe("upgrade it in place: adreport serve upgrade --db 'my data.db'");
  });

  it("says where the password goes in a URL shown without it", () => {
    const refusal = schemaRefusal({ kind: "older", version: 1, missing: [] }, "postgres://u:***@db/ads");
    expect(refusal?.hint).toBe(
      "upgrade it in place (with the password in place of ***): adreport serve upgrade --db 'postgres://u:***@db/ads'",
    );
  });

  it("has nothing to say of a current or a foreign database", () => {
    expect(schemaRefusal({ kind: "current" }, "a.db")).toBeUndefined();
    expect(schemaRefusal({ kind: "foreign" }, "a.db")).toBeUndefined();
  });
});
