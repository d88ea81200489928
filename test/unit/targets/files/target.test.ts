/** `{date}` files put in place: a signal that arrives while they are being renamed does not cut the commit short. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { csvFormatter } from "../../../../src/format/csv";
import { dayFileTarget } from "../../../../src/targets/files/target";
import { tempDir } from "../../../helpers/temp";

const meta = {
  granularity: "daily",
  dimensions: ["campaign", "date"],
  metrics: ["views"],
  total: 3,
  page: 1,
  limit: 1000,
  has_more: false,
};
const day = (text: string) => Date.parse(`${text}T00:00:00Z`) / 1000;
const DAYS = ["2026-11-01", "2026-11-02", "2026-11-03"];

describe("dayFileTarget", () => {
  it("a signal during the commit leaves every day put in place (it removed the days not yet renamed)", async () => {
    const dir = tempDir();
    const target = dayFileTarget("{date}.csv", dir, csvFormatter, {
      delimiter: ",",
      bom: false,
      spreadsheet: false,
      color: false,
    });
    async function* pages() {
      yield {
        rows: DAYS.map((d, i) => ({ dimensions: { campaign_id: 1, name: "A", date: day(d) }, metrics: { views: i } })),
      };
    }
    await target.stage(
      { meta, totalKnown: true, pages: pages() },
      { from: DAYS[0] as string, to: DAYS[2] as string, everyDay: DAYS },
    );
    const committed = target.commit(new Set(DAYS));
    target.abortNow();
    await committed;
    expect(readdirSync(dir).sort()).toEqual(DAYS.map((d) => `${d}.csv`));
    expect(readFileSync(join(dir, "2026-11-03.csv"), "utf8")).toContain("2026-11-03,2");
  });
});
