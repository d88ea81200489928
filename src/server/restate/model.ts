/**
 * The restatement model of `serve` (docs/service.md, "Restatements"): what a day's stored facts read as at
 * the service's clock. A pure function of the seed, the horizon, the day and the clock, so two databases
 * seeded alike answer alike at the same clock, however their clocks got there.
 *
 * Each day settles at an age L (whole days after its end, 1..horizon, most days within a few days, a long
 * tail to the horizon) and restates at a few ages before L (most likely the first ones). Between its
 * restatements a day holds still. At a restatement of age e the share of the change still to come is
 * (1 - e/L)^2, so most of it happens early; at L its counts read as loaded, for good. Three days in ten
 * also start with conversions credited to the wrong ads (each ad's swapped with a partner's of the same
 * advertiser, in another campaign where there is one) and move them back at an age up to the horizon where
 * nothing else changes: a restatement that keeps the day's totals.
 */
import { SECONDS_PER_DAY as DAY, SECONDS_PER_HOUR as HOUR } from "../../core/calendar";
import { seededRandom } from "../seeded-random";

export interface RestateModel {
  seed: number;
  /** Whole days after a day's end within which it may still change. */
  horizonDays: number;
}

/** Parts per million of a day's change still to come (or the whole of it, for `conversions`) per counter. */
export interface DayFactors {
  /** Conversions not yet attributed, of those loaded (each row's share varies from half to 1.5 times it). */
  conversionsMissing: number;
  /** Bot clicks not yet detected, of those loaded: the valid clicks reported are higher until they are. */
  botUndetected: number;
  /** Invalid views not yet removed, over those loaded. */
  viewsExtra: number;
  /** Spending before its corrections, over (or under) the spending loaded. */
  spendingOff: number;
}

/** What a day reads as at a clock: which of its hours exist, and its factors. */
export interface DayState {
  /** Midnight UTC of the day. */
  day: number;
  /** Its hours before this second exist (hours that ended by the clock); none when it is the day itself. */
  visibleEnd: number;
  factors: DayFactors;
  /** Deleted ads' hours of the day are left out (it ends after the first deletion). */
  hidesDeleted: boolean;
  /** Paired ads' conversions are each other's (not yet moved back). */
  moved: boolean;
}

/** Parts per million. */
export const PPM = 1_000_000;

export const MAX_HORIZON_DAYS = 365;

/** The seed of a day's draws: the model's seed and the day mixed so neighbouring days draw apart. */
function daySeed(seed: number, day: number): number {
  return (Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(day / DAY + 0x7f4a7c15, 0x85ebca6b)) >>> 0;
}

export interface DaySchedule {
  /** Age (whole days after the day's end) from which the day reads as loaded. */
  settles: number;
  /** Ages before `settles` at which it restates, ascending. */
  ages: number[];
  /** Each counter's share of change at the day's end (the whole share), in parts per million. */
  spans: DayFactors;
  /** Age (up to the horizon) at which conversions credited to paired ads move back, when nothing else changes; or none. */
  movedBack: number | undefined;
}

/** A day's restatements, drawn from the seed alone. */
export function daySchedule(model: RestateModel, day: number): DaySchedule {
  const rand = seededRandom(daySeed(model.seed, day));
  rand();
  const h = model.horizonDays;
  const settles = 1 + Math.floor((h - 1) * rand() ** 3);
  const ages: number[] = [];
  for (let age = 1; age < settles; age += 1) {
    if (rand() < Math.min(0.9, 1.5 / age)) ages.push(age);
  }
  const between = (lo: number, hi: number) => Math.round((lo + (hi - lo) * rand()) * PPM);
  const spans = {
    conversionsMissing: between(0.2, 0.5),
    botUndetected: between(0.3, 0.8),
    viewsExtra: between(0.005, 0.03),
    spendingOff: between(-0.03, 0.05),
  };
  const [moves, at] = [rand(), rand()];
  const quiet: number[] = [];
  for (let age = 1; age <= h; age += 1) if (age !== settles && !ages.includes(age)) quiet.push(age);
  const movedBack = moves < 0.3 && quiet.length > 0 ? quiet[Math.floor(at * quiet.length)] : undefined;
  return { settles, ages, spans, movedBack };
}

/** The share (ppm) of a day's change still to come at its age `age` (-1 today, 0 yesterday). */
export function shareToCome(schedule: DaySchedule, age: number): number {
  if (age >= schedule.settles) return 0;
  let last = 0;
  for (const a of schedule.ages) if (a <= age) last = a;
  const left = 1 - last / schedule.settles;
  return Math.round(left * left * PPM);
}

/** The day's age at `clock`: whole days since its end; -1 while it is today, less before it began. */
export function ageAt(day: number, clock: number): number {
  return Math.floor((clock - day) / DAY) - 1;
}

/** The first hour that has not ended at `clock`: hours before it exist. */
export function hoursEnd(clock: number): number {
  return Math.floor(clock / HOUR) * HOUR;
}

/**
 * What `day` reads as at `clock`; `firstDeletion`: the first hour from which an ad is deleted (none:
 * Infinity).
 */
export function dayState(model: RestateModel, day: number, clock: number, firstDeletion: number): DayState {
  const visibleEnd = Math.max(day, Math.min(day + DAY, hoursEnd(clock)));
  const schedule = daySchedule(model, day);
  const share = shareToCome(schedule, ageAt(day, clock));

  const scale = (span: number) => Math.round((span * share) / PPM);
  const { spans } = schedule;
  const age = ageAt(day, clock);
  return {
    day,
    visibleEnd,
    hidesDeleted: day + DAY > firstDeletion,
    moved: schedule.movedBack !== undefined && age < schedule.movedBack,
    factors: {
      conversionsMissing: scale(spans.conversionsMissing),
      botUndetected: scale(spans.botUndetected),
      viewsExtra: scale(spans.viewsExtra),
      spendingOff: scale(spans.spendingOff),
    },
  };
}

/** The state of a day as loaded: every hour, no change to come (the database before the model, or after it). */
export function loadedState(day: number): DayState {
  return {
    day,
    visibleEnd: day + DAY,
    hidesDeleted: false,
    moved: false,
    factors: { conversionsMissing: 0, botUndetected: 0, viewsExtra: 0, spendingOff: 0 },
  };
}

function sameState(a: DayState, b: DayState): boolean {
  const fa = a.factors;
  const fb = b.factors;
  return (
    a.visibleEnd === b.visibleEnd &&
    a.hidesDeleted === b.hidesDeleted &&
    a.moved === b.moved &&
    fa.conversionsMissing === fb.conversionsMissing &&
    fa.botUndetected === fb.botUndetected &&
    fa.viewsExtra === fb.viewsExtra &&
    fa.spendingOff === fb.spendingOff
  );
}

/**
 * The days of [firstDay, lastDay] whose state differs between two readings, each in its new state. A
 * reading is a function of the day: a model at a clock, or the data as loaded.
 */
export function changedDays(
  firstDay: number,
  lastDay: number,
  before: (day: number) => DayState,
  after: (day: number) => DayState,
): DayState[] {
  const changed: DayState[] = [];
  for (let day = firstDay; day <= lastDay; day += DAY) {
    const next = after(day);
    if (!sameState(before(day), next)) changed.push(next);
  }
  return changed;
}

/**
 * Days that can differ at all between clocks `a` and `b`: a day that ended more than the horizon before both
 * reads as loaded at both, and a day after both has no hour at either.
 */
export function daysInPlay(model: RestateModel, a: number, b: number): { from: number; to: number } {
  const early = Math.min(a, b);
  const late = Math.max(a, b);
  const from = Math.floor(early / DAY) * DAY - (model.horizonDays + 2) * DAY;
  return { from, to: Math.floor(late / DAY) * DAY };
}

/** An ad and the ad whose conversions it shows on a day whose conversions are moved (both ways). */
export interface AdPair {
  adId: number;
  partnerId: number;
}

/**
 * Pairs of the ads of each advertiser (deleted ones left out): in order of campaign, then id, the first half
 * with the second, so partners are in different campaigns wherever the advertiser has more than one.
 */
export function adPairs(ads: ReadonlyArray<{ adId: number; campaignId: number; advertiserId: number }>): AdPair[] {
  const byAdvertiser = new Map<number, Array<{ adId: number; campaignId: number }>>();
  for (const ad of ads) {
    const list = byAdvertiser.get(ad.advertiserId) ?? [];
    list.push(ad);
    byAdvertiser.set(ad.advertiserId, list);
  }
  const pairs: AdPair[] = [];
  for (const list of byAdvertiser.values()) {
    list.sort((a, b) => a.campaignId - b.campaignId || a.adId - b.adId);
    const half = Math.floor(list.length / 2);
    for (let i = 0; i < half; i += 1) {
      const [one, other] = [list[i] as { adId: number }, list[i + half] as { adId: number }];
      pairs.push({ adId: one.adId, partnerId: other.adId }, { adId: other.adId, partnerId: one.adId });
    }
  }
  return pairs.sort((a, b) => a.adId - b.adId);
}

export interface DeletedAd {
  adId: number;
  /** From this hour on the ad has no data (its hours before stay, restating as any other day's). */
  deletedAt: number;
}

/**
 * `count` of the ads, deleted each at an hour drawn within the last 90 days of the data (or all of it, when
 * shorter), the same for the same seed and ads.
 */
export function deletedAds(
  seed: number,
  adIds: readonly number[],
  count: number,
  firstHour: number,
  endHour: number,
): DeletedAd[] {
  const rand = seededRandom((seed ^ 0x2c1b3c6d) >>> 0);
  const pool = [...adIds].sort((a, b) => a - b);
  const from = Math.max(firstHour, endHour - 90 * DAY);
  const hours = Math.max(1, Math.floor((endHour - from) / HOUR));
  const chosen: DeletedAd[] = [];
  for (let i = 0; i < Math.min(count, pool.length); i += 1) {
    const at = Math.floor(rand() * pool.length);
    const [adId] = pool.splice(at, 1) as [number];
    chosen.push({ adId, deletedAt: from + Math.floor(rand() * hours) * HOUR });
  }
  return chosen.sort((a, b) => a.adId - b.adId);
}

/** `ceil(ads / 20)`: "a few" ads of the data, at least one where there are any. */
export function defaultDeletions(ads: number): number {
  return Math.ceil(ads / 20);
}
