/**
 * A database target as a DayTarget: the run's days are deleted (for the same profile, granularity and
 * filters) and inserted again in one transaction, committed only when every window is in; a failed run
 * rolls back and leaves the table as it was. Re-running a run yields the same rows.
 */
import type { ReportRequest } from "../../contract";
import type { ReportStream } from "../../contract/report-stream";
import { AdreportError, UnavailableError, UsageError } from "../../core/errors";
import { addRow, type DayRecord, emptyRecord } from "../../state/day-record";
import type { DayLoad, DaySpan, DayTarget } from "../day-target";
import type { TableAccess } from "./access";
import { type TableLayout, tableLayout } from "./columns";
import type { TableEngine } from "./engine";
import { targetFailure } from "./failure";
import { checkTable, type TableGrowth } from "./growth";
import { JOBS_TABLE } from "./jobs";
import { LOADS_TABLE } from "./loads";

export type { TableAccess };

export interface TableOptions {
  profile: string;
  request: ReportRequest;
  cwd: string;
  now: Date;
  sqliteAddon: object | undefined;
  /** This run's id: in `run_id` of every row it writes, and in adreport_loads. */
  runId: string;
  /** The job's id (as `adreport state list` shows it): in adreport_loads and in the hint to backfill. */
  job: string;
  /** Says what the run changed of the table (a column added), once, after its commit. */
  note?: (text: string) => void;
}

function dayOfValue(value: string | number | null): string | undefined {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : undefined;
}

export async function openTableTarget(
  choice: TableAccess,
  options: TableOptions,
): Promise<DayTarget & { close(): Promise<void> }> {
  const failure = (engine: TableEngine | undefined, error: unknown) =>
    targetFailure(choice.failureWords, "write", engine?.description ?? choice.where, error, engine !== undefined);
  // SQLite and DuckDB read a name without regard to case: ADREPORT_LOADS is that table there.
  const lower = choice.table.toLowerCase();
  if (lower === LOADS_TABLE) {
    throw new UsageError(`--table ${choice.table}: that table is where adreport records every run's days`, {
      hint: "choose another --table",
    });
  }
  if (lower === JOBS_TABLE) {
    throw new UsageError(`--table ${choice.table}: that table is where adreport keeps the state of its jobs`, {
      hint: "choose another --table",
    });
  }
  let engine: TableEngine;
  try {
    engine = await choice.engine(options);
  } catch (error) {
    throw failure(undefined, error);
  }
  const layout: TableLayout = tableLayout(options.request, options.profile);
  const { description } = engine;
  let growth: TableGrowth;
  try {
    // Before any request: a table that cannot take this run's rows is refused, untouched.
    growth = await checkTable(engine, layout, choice.table, options);
  } catch (error) {
    await engine.close().catch(() => undefined);
    throw error instanceof AdreportError ? error : failure(engine, error);
  }
  const dateIndex = layout.columns.findIndex((c) => c.kind === "date");
  let begun = false;
  let committing = false;
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AdreportError) throw error;
      throw failure(engine, error);
    }
  };
  const begin = async () => {
    await engine.begin(layout);
    begun = true;
    await growth.grow();
  };
  return {
    description,
    replacesAll: true,
    async stage(report: ReportStream, span: DaySpan) {
      const records = new Map<string, DayRecord>();
      for (const day of span.everyDay) records.set(day, emptyRecord(report.meta.metrics));
      const pending: Array<Array<string | number | null>> = [];
      await guard(async () => {
        if (!begun) await begin();
        await engine.deleteDays(layout, span.from, span.to);
      });
      const inserter = await guard(() => engine.startInsert(layout, options.now, growth.runId));
      let ended = false;
      try {
        for await (const page of report.pages) {
          pending.length = 0;
          for (const row of page.rows) {
            const values = layout.values(row);
            const day = dayOfValue(values[dateIndex] ?? null);
            if (day === undefined) {
              throw new UnavailableError("the service sent a row without a date, so it has no day in the table", {
                hint: "the service does not keep to the contract; the table was left as it was",
              });
            }
            // Its day would not be deleted by the next run: the table would hold it twice.
            if (day < span.from || day > span.to) {
              throw new UnavailableError(`the service sent a row dated ${day}, outside the days asked for`, {
                hint: "the service does not keep to the range of the request; the table was left as it was",
              });
            }
            let record = records.get(day);
            if (!record) {
              record = emptyRecord(report.meta.metrics);
              records.set(day, record);
            }
            addRow(record, row);
            pending.push(values);
          }
          await guard(() => inserter.write(pending));
        }
        ended = true;
        await guard(() => inserter.end());
      } catch (error) {
        if (!ended) await inserter.end().catch(() => undefined);
        throw error;
      }
      return records;
    },
    async restart() {
      await engine.rollback();
      begun = false;
    },
    prepare: async () => undefined,
    waiting: () => engine.waiting?.(),
    found: async () => "as staged",
    async commit(_days: ReadonlySet<string>, loads?: ReadonlyArray<DayLoad>) {
      committing = true;
      let recorded = true;
      await guard(async () => {
        if (!begun) await begin();
        if (loads !== undefined && loads.length > 0) {
          const of = { runId: options.runId, job: options.job, table: choice.table, loadedAt: options.now };
          recorded = await engine.writeLoads({ ...of, profile: layout.profile, scope: layout.scope }, loads);
        }
        await engine.commit();
      });
      begun = false;
      growth.committed(recorded);
    },
    async abort() {
      await engine.rollback().catch(() => undefined);
      begun = false;
    },
    abortNow() {
      // Nothing reached the table before commit; a statement waiting on another session's locks ends now.
      // A COMMIT under way is let finish: dropping it would leave unknown whether the table changed.
      if (!committing) engine.abortNow();
    },
    close: () => engine.close(),
  };
}
