/**
 * The units a run of whole days commits. An incremental job commits each 90-day window as soon as it is in
 * (a checkpoint recorded in its state before the next window is fetched): a run killed after four windows
 * continues from the fifth. Any other run is one unit, all or nothing.
 */
import { bucketUnitOf } from "../../core/calendar";
import type { DaySpan } from "../../targets/day-target";
import type { RequestPlan } from "../plan/request";
import { spanOf } from "./span";

export interface DayPass {
  windows: Array<{ from: string; to: string }>;
  span: DaySpan;
}

export interface DayUnit {
  passes: DayPass[];
  /** The last day the unit completes: every day up to it is exported once the unit is committed. */
  lastDay: string;
}

/** Daily and hourly windows hold disjoint days: one after the other, so only one window's days are open. */
export function passesOf(request: RequestPlan, granularity: string): DayPass[] {
  const unit = bucketUnitOf(granularity);
  const daily = unit === "day" || unit === "hour";
  // Weeks and months may straddle a window boundary: merged, as without {date}.
  const windows = request.windows ?? [{ from: request.request.from, to: request.request.to }];
  return daily
    ? windows.map((w) => ({ windows: [w], span: spanOf(w.from, w.to, granularity) }))
    : [{ windows, span: spanOf(request.request.from, request.request.to, granularity) }];
}

export function unitsOf(request: RequestPlan, granularity: string, checkpoints: boolean): DayUnit[] {
  const passes = passesOf(request, granularity);
  if (!checkpoints) return [{ passes, lastDay: request.toDate }];
  return passes.map((pass, i) => ({
    passes: [pass],
    lastDay: i === passes.length - 1 ? request.toDate : pass.span.to,
  }));
}
