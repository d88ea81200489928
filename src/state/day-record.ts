/**
 * What a day of an export was, to tell whether the service changed it since: the number of rows and each
 * metric's sum, spending in integer micros (never a float compared with a float), and for a day file the
 * SHA-256 of its bytes, so that a restatement that keeps the totals (views moved from one campaign to
 * another, a campaign renamed) is seen too.
 */
import type { ReportRow } from "../contract";
import { spendingMicros } from "../contract/fields";

export interface DayRecord {
  rows: number;
  /** Metric name -> sum; spending in micros (millionths), the counts as they are. */
  sums: Record<string, number>;
  /** SHA-256 (hex) of the day's file; absent for tables (every day is replaced) and in earlier states. */
  digest?: string;
  /**
   * --lookback auto: per check dimension (`campaign`, `ad`, `date`), a digest of the day's totals per entity,
   * from the day's rows or the service's totals (engine/days/check-digest.ts). Moved rows change it.
   */
  checks?: Record<string, string>;
  /** The ledger: the run that wrote the day, the requests of the window that fetched it, and when. */
  run?: string;
  requests?: number;
  at?: string;
}

export function emptyRecord(metrics: readonly string[]): DayRecord {
  return { rows: 0, sums: Object.fromEntries(metrics.map((m) => [m, 0])) };
}

function exact(metric: string, value: number): number {
  return metric === "spending" ? spendingMicros(value) : value;
}

export function addRow(record: DayRecord, row: ReportRow): void {
  record.rows += 1;
  const metrics = row.metrics;
  for (const metric in metrics) {
    const value = metrics[metric];
    if (typeof value !== "number" || !Number.isFinite(value)) continue;
    record.sums[metric] = (record.sums[metric] ?? 0) + exact(metric, value);
  }
}

function shown(metric: string, value: number | undefined): string {
  if (value === undefined) return "none";
  if (metric !== "spending") return value.toLocaleString("en-US");
  return (value / 1e6).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 6 });
}

/**
 * What differs between two records, as `rows 3 -> 4, spending 1,204.55 -> 1,210.02`, or `rows changed, totals
 * the same`; empty when nothing does. A day file recorded by an earlier adreport (no digest) counts as
 * changed, once.
 */
export function differences(before: DayRecord, after: DayRecord): string[] {
  const totals = totalDifferences(before, after);
  if (totals.length > 0) return totals;
  if (before.digest === undefined && after.digest !== undefined) {
    return ["written again once: the state held only its totals (kept by an earlier adreport)"];
  }
  if (before.digest !== after.digest) return ["rows changed, totals the same"];
  return [];
}

/** What differs in rows and sums only (`rows 3 -> 4`, `spending 1,204.55 -> 1,210.02`), for the metrics of `before`. */
export function totalDifferences(
  before: Pick<DayRecord, "rows" | "sums">,
  after: Pick<DayRecord, "rows" | "sums">,
): string[] {
  const changes: string[] = [];
  if (before.rows !== after.rows) changes.push(`rows ${shown("rows", before.rows)} -> ${shown("rows", after.rows)}`);
  const metrics = new Set([...Object.keys(before.sums), ...Object.keys(after.sums)]);
  for (const metric of metrics) {
    const a = before.sums[metric];
    const b = after.sums[metric];
    if (a !== b) changes.push(`${metric} ${shown(metric, a)} -> ${shown(metric, b)}`);
  }
  return changes;
}

function isTextRecord(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.values(value).every((t) => typeof t === "string");
}

export function isDayRecord(value: unknown): value is DayRecord {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.rows !== "number" || typeof v.sums !== "object" || v.sums === null) return false;
  if (v.digest !== undefined && typeof v.digest !== "string") return false;
  if (v.run !== undefined && typeof v.run !== "string") return false;
  if (v.at !== undefined && typeof v.at !== "string") return false;
  if (v.requests !== undefined && typeof v.requests !== "number") return false;
  if (v.checks !== undefined && !isTextRecord(v.checks)) return false;
  return Object.values(v.sums).every((n) => typeof n === "number" && Number.isFinite(n));
}
