/**
 * Day files written the way a `{date}` export writes them (dayFileTarget with a real formatter, staged and
 * put in place), with the records the export kept of each day: what the reader must read back.
 */
import { join } from "node:path";
import type { ReportRow } from "../../src/contract";
import { dayFileReader, formatNamed } from "../../src/format/registry";
import type { DayRecord } from "../../src/state/day-record";
import type { DayFileWrite } from "../../src/state/store";
import { type DayFileReading, readDayFile as readWithReader } from "../../src/targets/files/reader";
import { dayFileTarget } from "../../src/targets/files/target";

export const METRICS = ["views", "clicks", "spending", "conversions"];

export const secondOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/** Names that quoting, escaping and spreadsheet defusing all have work to do on, and characters of 1-4 bytes. */
const NAMES = ['Spring, "Sale"', "=SUM(A1)", "line\nbreak", "cr\rhere", "tab\there", "back\\slash", "Ünïcødé €𝄞", "-5"];

/** `count` rows on each day but the last of `days`, which has none (a header-only file). */
export function rowsOf(days: readonly string[], count: number): ReportRow[] {
  const rows: ReportRow[] = [];
  for (const [d, day] of days.slice(0, -1).entries()) {
    for (let i = 0; i < count; i += 1) {
      rows.push({
        dimensions: { campaign_id: 100 + i, name: `${NAMES[i % NAMES.length]} ${i}`, date: secondOf(day) },
        metrics: {
          views: 1000 * d + i,
          clicks: i % 5 === 0 ? null : i,
          // Half a micro and long fractions: each row rounds to micros on its own, as the ledger did.
          spending: [0.1, 12.3456785, 1e-7, 98765.4321, 0.0000005, 1 / 3, 2.675, 0][i % 8] as number,
          conversions: i % 7,
        },
      });
    }
  }
  return rows;
}

/** Writes the rows as `{date}` files of `template` under `dir`; the records the export kept, by day. */
export async function writeDays(
  dir: string,
  template: string,
  write: DayFileWrite,
  days: readonly string[],
  rows: readonly ReportRow[],
  pageSize = 50,
): Promise<Map<string, DayRecord>> {
  const options = { delimiter: write.delimiter, bom: write.bom, spreadsheet: write.spreadsheet, color: false };
  const formatter = await formatNamed(write.format)?.load();
  if (formatter === undefined) throw new Error(`no format ${write.format}`);
  const target = dayFileTarget(template, dir, formatter, options);
  const meta = {
    granularity: "daily",
    dimensions: ["campaign", "date"],
    metrics: METRICS,
    total: rows.length,
    page: 1,
    limit: pageSize,
    has_more: false,
  };
  async function* pages() {
    for (let at = 0; at < rows.length; at += pageSize) yield { rows: rows.slice(at, at + pageSize) };
  }
  const span = { from: days[0] as string, to: days.at(-1) as string, everyDay: days };
  const records = await target.stage({ meta, totalKnown: false, pages: pages() }, span);
  await target.commit(new Set(days));
  return records;
}

export const pathIn = (dir: string, template: string, day: string) => join(dir, template.replaceAll("{date}", day));

/** A day file read back as `verify` reads it: the reader of its format (the registry's), for its options. */
export async function readDayFile(
  path: string,
  write: DayFileWrite,
  metrics: readonly string[],
  known?: DayRecord,
): Promise<DayFileReading> {
  return readWithReader(path, await dayFileReader(write.format, write), metrics, known);
}
