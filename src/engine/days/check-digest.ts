/**
 * A day's totals per entity, as --lookback auto compares them: the same tally from the rows a run fetched
 * in full (hours or days of a job) and from the service's cheap totals (the entity by day), so a day whose
 * rows moved from one campaign to another, its totals the same, gets another digest. Spending in integer
 * micros, as the day records keep it.
 */
import { createHash } from "node:crypto";
import type { ReportRow } from "../../contract";
import { dayText, SECONDS_PER_DAY } from "../../core/calendar";

/** What a check tallies by: an entity's rows (their id key), or the day's total. */
export type CheckGrain = "ad" | "campaign" | "date";

const ID_KEY: Record<CheckGrain, string | undefined> = { ad: "ad_id", campaign: "campaign_id", date: undefined };

/** The grains a job's rows can be tallied by, finest first: its own entity, the campaign of an ad, the day. */
export function grainsOf(dimensions: readonly string[]): CheckGrain[] {
  if (dimensions.includes("ad")) return ["ad", "campaign", "date"];
  if (dimensions.includes("campaign")) return ["campaign", "date"];
  return ["date"];
}

/**
 * Whether a tally by `grain` tells an entity by its name too: at the job's own entity, whose rows (and the
 * totals by it) carry its name, so that an entity renamed (its days' totals and spread kept, its day files
 * not) counts as a day that moved. An ad's rows do not carry its campaign's name.
 */
export function namedAt(grain: CheckGrain, dimensions: readonly string[]): boolean {
  return grain !== "date" && grainsOf(dimensions)[0] === grain;
}

interface DayTally {
  /** Entity id -> metric -> sum. */
  entities: Map<string, Record<string, number>>;
  /** A row lacked the grain's id: this day cannot be tallied by it. */
  broken: boolean;
}

const exact = (metric: string, value: number) => (metric === "spending" ? Math.round(value * 1e6) : value);

/** Day (YYYY-MM-DD) of a row's `date`: epoch seconds, or undefined when it is not a number. */
export function rowDay(row: ReportRow): string | undefined {
  const sec = row.dimensions.date;
  return typeof sec === "number" && Number.isFinite(sec) ? dayText(Math.floor(sec / SECONDS_PER_DAY)) : undefined;
}

export class CheckTally {
  private readonly days = new Map<string, DayTally>();

  constructor(
    readonly grain: CheckGrain,
    private readonly metrics: readonly string[],
    /** The entity's name is part of what is tallied (namedAt). */
    private readonly named = false,
  ) {}

  /** False when the row does not hold what the tally needs (a date, the id, a number per metric). */
  add(row: ReportRow): boolean {
    const day = rowDay(row);
    if (day === undefined) return false;
    let tally = this.days.get(day);
    if (!tally) {
      tally = { entities: new Map(), broken: false };
      this.days.set(day, tally);
    }
    const key = ID_KEY[this.grain];
    const id = key === undefined ? "" : row.dimensions[key];
    if (key !== undefined && (typeof id !== "number" || !Number.isFinite(id))) {
      tally.broken = true;
      return false;
    }
    const name = row.dimensions.name;
    const entity = this.named && typeof name === "string" ? JSON.stringify([id, name]) : String(id);
    const sums = tally.entities.get(entity) ?? {};
    for (const metric of this.metrics) {
      const value = row.metrics[metric];
      if (typeof value !== "number" || !Number.isFinite(value)) {
        tally.broken = true;
        return false;
      }
      sums[metric] = (sums[metric] ?? 0) + exact(metric, value);
    }
    tally.entities.set(entity, sums);
    return true;
  }

  /** Every day tallied whole: day -> digest. */
  digests(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [day, tally] of this.days) {
      if (!tally.broken) out.set(day, digestOf(tally.entities, this.metrics));
    }
    return out;
  }

  /** Day -> each metric's sum over the day's entities. */
  sums(): Map<string, Record<string, number>> {
    const out = new Map<string, Record<string, number>>();
    for (const [day, tally] of this.days) {
      const sums: Record<string, number> = Object.fromEntries(this.metrics.map((m) => [m, 0]));
      for (const entity of tally.entities.values()) {
        for (const metric of this.metrics) sums[metric] = (sums[metric] ?? 0) + (entity[metric] ?? 0);
      }
      out.set(day, sums);
    }
    return out;
  }

  /** The most entities one day held. */
  mostPerDay(): number {
    let most = 0;
    for (const tally of this.days.values()) most = Math.max(most, tally.entities.size);
    return most;
  }
}

/** Entities whose every metric is 0 are left out: a service may or may not send such a row. */
function digestOf(entities: Map<string, Record<string, number>>, metrics: readonly string[]): string {
  const lines: string[] = [];
  for (const [entity, sums] of entities) {
    if (metrics.every((m) => (sums[m] ?? 0) === 0)) continue;
    lines.push(`${entity}:${metrics.map((m) => sums[m] ?? 0).join(",")}`);
  }
  lines.sort();
  return createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16);
}

/** The digest of a day without rows (a service sends none for it). */
export const NO_ROWS_DIGEST = digestOf(new Map(), []);
