/** `{date}` in --output as a DayTarget: one file per date bucket (targets/files/writer.ts), unchanged days left alone. */
import { access, stat } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import type { ReportStream } from "../../contract/report-stream";
import type { FormatOptions, Formatter } from "../../format/formatter";
import { removeStagedLeftovers } from "../../io/leftovers";
import { notAFile } from "../../io/output-target";
import { SinkError } from "../../io/sink";
import type { StagedFile } from "../../io/staged-file";
import type { DayRecord } from "../../state/day-record";
import type { DayLoad, DaySpan, DayTarget } from "../day-target";
import { DayFolders } from "./folders";
import { type StagedDay, stageDayFiles } from "./writer";

const DATE_PLACEHOLDER = "{date}";

export function dayFileTarget(
  template: string,
  cwd: string,
  formatter: Formatter,
  options: FormatOptions,
  fill: (template: string) => string = (t) => t,
): DayTarget {
  const filled = fill(template);
  const pathOf = (day: string) => filled.replaceAll(DATE_PLACEHOLDER, day);
  const whereOf = (day: string) => resolve(cwd, pathOf(day));
  const byDay = dirname(filled).includes(DATE_PLACEHOLDER) ? new DayFolders() : undefined;
  const folderOf = byDay && ((day: string) => byDay.ready(dirname(whereOf(day))));
  const live = new Set<StagedFile>();
  const staged = new Map<string, StagedDay>();
  let committing = false;
  /** A day's file must be a regular file or nothing: a pipe's reader would get nothing from a rename. */
  const checkReplaceable = async (day: string) => {
    const found = await stat(whereOf(day)).catch(() => undefined);
    const what = found && notAFile(found);
    if (what !== undefined) {
      throw new SinkError(
        pathOf(day),
        `it is ${what}, not a file a {date} export can replace (remove it, or change -o)`,
      );
    }
  };
  const discardAll = async () => {
    await Promise.all([...staged.values()].map((s) => s.file.discard()));
    staged.clear();
    live.clear();
    await byDay?.removeEmpty();
  };
  return {
    description: template,
    replacesAll: false,
    waiting: () => undefined,
    async prepare(days: readonly string[]) {
      const folders = new Set<string>();
      for (const day of days) {
        await checkReplaceable(day);
        folders.add(dirname(whereOf(day)));
      }
      for (const folder of folders) await removeStagedLeftovers(folder, basename(filled));
    },
    async stage(report: ReportStream, span: DaySpan) {
      const days = await stageDayFiles(report, formatter, options, {
        pathOf,
        whereOf,
        everyDay: span.everyDay,
        live,
        ...(folderOf ? { folderOf } : {}),
      });
      const records = new Map<string, DayRecord>();
      for (const [day, s] of days) {
        await staged.get(day)?.file.discard();
        staged.set(day, s);
        records.set(day, s.record);
      }
      return records;
    },
    restart: discardAll,
    async found(day: string) {
      const present = await access(whereOf(day)).then(
        () => true,
        () => false,
      );
      if (!present) return "missing";
      const s = staged.get(day);
      return s && !(await s.file.sameAsTarget()) ? "other" : "as staged";
    },
    async commit(days: ReadonlySet<string>, _loads?: ReadonlyArray<DayLoad>) {
      committing = true;
      try {
        for (const day of staged.keys()) if (days.has(day)) await checkReplaceable(day);
        for (const [day, s] of staged) {
          if (!days.has(day)) continue;
          try {
            await s.file.commit();
          } catch (error) {
            throw SinkError.from(s.path, error);
          }
        }
      } finally {
        committing = false;
        await discardAll();
      }
    },
    abort: discardAll,
    abortNow() {
      // Renames under way are let finish: cut short, some days would be new and others gone.
      if (committing) return;
      for (const file of live) file.discardNow();
      byDay?.removeEmptyNow();
    },
  };
}
