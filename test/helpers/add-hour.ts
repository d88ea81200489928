/**
 * A change of the data under a running `serve`: an hour of an advertiser's first ad that had no data gets
 * some (a load line written into the database), so that every later row of a report moves by one.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadNdjsonInto, openOperatorStore } from "../../src/server";
import type { RefLine } from "./reference";
import { tempDir } from "./temp";

const hourText = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

/** The first hour from `from` on without data for the advertiser's first ad gets `views: 9`; the line added. */
export async function addHourToFirstAd(
  service: { lines: readonly RefLine[]; dbPath: string },
  advertiser: string,
  from: string,
): Promise<RefLine> {
  const own = service.lines.filter((l) => l.advertiser === advertiser && l.keyword_id === undefined);
  const firstAd = Math.min(...own.map((l) => l.ad_id));
  const taken = new Set(own.filter((l) => l.ad_id === firstAd).map((l) => l.hour));
  const template = own.find((l) => l.ad_id === firstAd) as RefLine;
  let hour = Date.parse(from);
  while (taken.has(hourText(hour))) hour += 3_600_000;
  const added: RefLine = { ...template, hour: hourText(hour), views: 9 };
  const file = join(tempDir(), "more.ndjson");
  writeFileSync(file, `${JSON.stringify(added)}\n`);
  const writer = await openOperatorStore(service.dbPath, { create: false });
  try {
    await loadNdjsonInto(writer, file);
  } finally {
    await writer.close();
  }
  return added;
}
