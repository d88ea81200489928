/**
 * `{date}` in --output: one file per date bucket, each staged beside its target (complete, synced) and put
 * in place only when the caller decides, so a day's file never holds half a day and a failed export leaves
 * every file as it was. Rows arrive in entity-then-date order, so every bucket of the report is open at
 * once: a formatter per bucket, fed a page at a time (memory: about one page per open bucket; descriptors:
 * one per bucket still being written).
 */
import type { ReportRow, RowPage } from "../../contract";
import type { ReportStream } from "../../contract/report-stream";
import { formatDate } from "../../core/calendar";
import { UnavailableError } from "../../core/errors";
import type { FormatOptions, Formatter } from "../../format/formatter";
import { endStream, SinkError, watchedStream } from "../../io/sink";
import { StagedFile } from "../../io/staged-file";
import { addRow, type DayRecord, emptyRecord } from "../../state/day-record";
import { PageChannel } from "./page-channel";

export interface StagedDay {
  day: string;
  path: string;
  record: DayRecord;
  file: StagedFile;
}

export interface DayFilesTarget {
  /** The file of a day (YYYY-MM-DD), as the user would name it. */
  pathOf(day: string): string;
  /** Where that file is (relative paths against the command's folder). */
  whereOf(day: string): string;
  /** Days that get a file even without rows (every day of a daily or hourly range). */
  everyDay: readonly string[];
  /** Every file staged, for a signal handler to remove at once. */
  live: Set<StagedFile>;
  /** Makes the folder of a day's file when the template names it by day (targets/files/folders.ts). */
  folderOf?(day: string): Promise<void>;
}

/** The day (YYYY-MM-DD) a row's bucket starts on; undefined for a row with no usable date. */
export function dayOf(row: ReportRow): string | undefined {
  const value = row.dimensions.date;
  if (typeof value === "number" && Number.isFinite(value)) return formatDate(value);
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) return value.slice(0, 10);
  return undefined;
}

interface OpenDay {
  staged: StagedDay;
  channel: PageChannel;
  /** Rejects when the day's formatter has ended, whether it failed or (fed everything) finished. */
  ended: Promise<never>;
  written: Promise<void>;
}

export async function stageDayFiles(
  report: ReportStream,
  formatter: Formatter,
  options: FormatOptions,
  target: DayFilesTarget,
): Promise<Map<string, StagedDay>> {
  const days = new Map<string, OpenDay>();
  const inRange = target.everyDay.length > 0 ? new Set(target.everyDay) : undefined;
  const open = async (day: string): Promise<OpenDay> => {
    const path = target.pathOf(day);
    let file: StagedFile;
    try {
      await target.folderOf?.(day);
      file = await StagedFile.create(target.whereOf(day));
    } catch (error) {
      throw SinkError.from(path, error);
    }
    target.live.add(file);
    const stream = watchedStream(file.stream, path);
    const channel = new PageChannel();
    const written = (async () => {
      const bucket: ReportStream = { meta: report.meta, totalKnown: false, pages: channel };
      await formatter.write(bucket, stream, options);
      try {
        await endStream(stream);
        await file.finish();
      } catch (error) {
        throw SinkError.from(path, stream.failed ?? error);
      }
      if (stream.failed) throw stream.failed;
    })();
    const ended = written.then(
      () => {
        throw new Error(`the file of ${day} was finished before its last rows`);
      },
      (error: unknown) => {
        throw stream.failed ?? error;
      },
    );
    ended.catch(() => undefined);
    const entry: OpenDay = {
      staged: { day, path, record: emptyRecord(report.meta.metrics), file },
      channel,
      ended,
      written,
    };
    days.set(day, entry);
    return entry;
  };
  try {
    for await (const page of report.pages) {
      const groups = new Map<string, ReportRow[]>();
      for (const row of page.rows) {
        const day = dayOf(row);
        if (day === undefined) throw new Error("a row came without a date, so it has no day file to go to");
        if (inRange && !inRange.has(day)) {
          throw new UnavailableError(`the service sent a row dated ${day}, outside the days asked for`, {
            hint: "the service does not keep to the range of the request; nothing was written",
          });
        }
        const group = groups.get(day);
        if (group) group.push(row);
        else groups.set(day, [row]);
      }
      for (const [day, rows] of groups) {
        const entry = days.get(day) ?? (await open(day));
        for (const row of rows) addRow(entry.staged.record, row);
        const slice: RowPage = { rows };
        await Promise.race([entry.channel.push(slice), entry.ended]);
      }
    }
    for (const day of target.everyDay) if (!days.has(day)) await open(day);
    for (const entry of days.values()) entry.channel.end();
    await Promise.all([...days.values()].map((entry) => entry.written));
  } catch (error) {
    for (const entry of days.values()) entry.channel.end();
    await Promise.allSettled([...days.values()].map((entry) => entry.written));
    await Promise.all([...days.values()].map((entry) => entry.staged.file.discard()));
    throw error;
  }
  // The file's bytes, read back once: a day restated with the same totals still differs there.
  for (const entry of days.values()) entry.staged.record.digest = await entry.staged.file.digest();
  return new Map([...days].map(([day, entry]) => [day, entry.staged]));
}
