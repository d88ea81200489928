/**
 * The whole way: `report --incremental` into `{date}` files against a real `serve` (in this process), then
 * every day file listed and read back, each equal to the day the job's state recorded: rows, sums and
 * digest, in every format and CSV option.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DayFileWrite, JobState } from "../../../../src/state/store";
import { listDayFiles } from "../../../../src/targets/files/list";
import { targetText } from "../../../../src/targets/registry";
import { readDayFile } from "../../../helpers/day-files-written";
import { at, newService } from "../../../helpers/incremental";

const PLAIN: DayFileWrite = { format: "csv", delimiter: ",", bom: false, spreadsheet: false };

const EXPORTS: Array<[string, string, string[], DayFileWrite]> = [
  ["csv", "csv/{date}.csv", [], PLAIN],
  ["csv --delimiter ;", "semi/{date}.csv", ["--delimiter", ";"], { ...PLAIN, delimiter: ";" }],
  ["csv --bom", "bom/{date}.csv", ["--bom"], { ...PLAIN, bom: true }],
  ["csv --spreadsheet", "sheet/{date}.csv", ["--spreadsheet"], { ...PLAIN, spreadsheet: true }],
  ["tsv", "tsv/{date}.tsv", [], { ...PLAIN, format: "tsv", delimiter: "\t" }],
  ["json", "json/{date}.json", [], { ...PLAIN, format: "json" }],
  ["ndjson", "nd/{date}/campaigns.ndjson", [], { ...PLAIN, format: "ndjson" }],
  ["parquet", "pq/date={date}/part.parquet", [], { ...PLAIN, format: "parquet" }],
];

const DAYS = Array.from({ length: 13 }, (_, i) => new Date(Date.UTC(2026, 9, 20 + i)).toISOString().slice(0, 10));

function stateOf(dir: string, template: string): JobState {
  const folder = join(dir, "config", "state");
  for (const name of readdirSync(folder).filter((n) => /^[0-9a-f]{8}\.json$/.test(n))) {
    const state = JSON.parse(readFileSync(join(folder, name), "utf8")) as JobState;
    if (targetText(state.job.target) === join(dir, template)) return state;
  }
  throw new Error(`no state for ${template}`);
}

describe("day files of an --incremental export, read back", () => {
  it("every day equals the job's record of it, in each format", async () => {
    const { dir, run } = await newService();
    for (const [name, template, flags, write] of EXPORTS) {
      // An export makes no folder: a template with {date} in a folder's name needs each day's made.
      for (const day of DAYS) mkdirSync(join(dir, template.replaceAll("{date}", day), ".."), { recursive: true });
      const args = ["report", "--dims", "campaign,date", "-o", template, "--incremental", "--start", "2026-10-20"];
      const result = await run([...args, ...flags], at("2026-11-02"));
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
      const state = stateOf(dir, template);
      const files = await listDayFiles(template, dir);
      expect([...files.keys()], name).toEqual(DAYS);
      const recorded = Object.entries(state.days);
      expect(recorded.map(([day]) => day).sort(), name).toEqual(DAYS);
      for (const [day, record] of recorded) {
        const path = files.get(day) as string;
        expect(record.digest, `${name} ${day}`).toMatch(/^[0-9a-f]{64}$/);
        const read = await readDayFile(path, write, state.job.metrics);
        // The ledger's own fields (run, requests, at) are not in the file.
        const { rows, sums, digest } = record;
        expect(read, `${name} ${day}`).toEqual({ rows, sums, digest, bytes: statSync(path).size });
      }
      // Some days of the demo have rows and spending; an all-empty export would prove little.
      expect(recorded.some(([, r]) => r.rows > 0 && (r.sums.spending ?? 0) > 0)).toBe(true);
    }
  });
});
