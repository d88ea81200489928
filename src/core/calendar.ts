/**
 * The proleptic Gregorian calendar in UTC, once for every layer: day numbers (days since 1970-01-01), their
 * dates and texts, where weeks (from Monday) and months start, and the words of the bucket sizes. Days and
 * weeks of another zone (--tz) are built on these in time-zone.ts.
 */

export const SECONDS_PER_HOUR = 3_600;
export const SECONDS_PER_DAY = 86_400;

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/**
 * Days since 1970-01-01 of a date (H. Hinnant's days_from_civil). A month past 12 or before 1 runs into the
 * next or previous years, a day past the month's end into the next months: (2026, 13, 1) is 2027-01-01.
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const index = year * 12 + (month - 1);
  const y0 = Math.floor(index / 12);
  const m = index - y0 * 12 + 1;
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export function civilFromDays(days: number): CivilDate {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** True when the three numbers name a day of the calendar (not 2026-02-31). */
export function isCivilDate(year: number, month: number, day: number): boolean {
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysFromCivil(year, month + 1, 1) - daysFromCivil(year, month, 1)
  );
}

/** A date alone (`2026-11-01`). */
export const BARE_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of a `YYYY-MM-DD` text, or undefined when it is not that or names no real day. */
export function dayOfText(text: string): number | undefined {
  const match = BARE_DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isCivilDate(year, month, day) ? daysFromCivil(year, month, day) : undefined;
}

function two(n: number): string {
  return String(n).padStart(2, "0");
}

/** `2026-11-01` of a day number. */
export function dayText(days: number): string {
  const { year, month, day } = civilFromDays(days);
  return `${String(year).padStart(4, "0")}-${two(month)}-${two(day)}`;
}

/** The UTC day a second falls in. */
export function dayOfSecond(sec: number): number {
  return Math.floor(sec / SECONDS_PER_DAY);
}

/** The UTC day of a clock's reading (today, for `now`). */
export function dayOfInstant(at: Date): number {
  return Math.floor(at.getTime() / 1000 / SECONDS_PER_DAY);
}

/** `2026-11-01` (the UTC day the second falls in). */
export function formatDate(sec: number): string {
  return dayText(dayOfSecond(sec));
}

/** `13:00:00` of a second's place in its day (any second: the day is taken off first). */
export function clockText(sec: number): string {
  const inDay = sec - dayOfSecond(sec) * SECONDS_PER_DAY;
  return `${two(Math.floor(inDay / 3600))}:${two(Math.floor((inDay % 3600) / 60))}:${two(Math.floor(inDay % 60))}`;
}

/** `2026-11-01T13:00:00Z` */
export function formatDateTime(sec: number): string {
  return `${formatDate(sec)}T${clockText(sec)}Z`;
}

/** The sizes of date buckets, and the word `meta.granularity` carries for each. */
export const BUCKET_UNITS = ["hour", "day", "week", "month"] as const;
export type BucketUnit = (typeof BUCKET_UNITS)[number];
export const BUCKET_WORDS: Readonly<Record<BucketUnit, string>> = {
  hour: "hourly",
  day: "daily",
  week: "weekly",
  month: "monthly",
};

/** The unit of a granularity word in any case (`day`, `Daily`, `hourly`, ...); undefined for `total` and others. */
export function bucketUnitOf(word: string | undefined): BucketUnit | undefined {
  if (word === undefined) return undefined;
  // The text formats ask once per row: the words as the service sends them are found without a new string.
  for (const unit of BUCKET_UNITS) if (word === unit || word === BUCKET_WORDS[unit]) return unit;
  const w = word.toLowerCase();
  if (w === word) return undefined;
  for (const unit of BUCKET_UNITS) if (w === unit || w === BUCKET_WORDS[unit]) return unit;
  return undefined;
}

/** The Monday of the ISO week holding the day. */
export function weekStart(day: number): number {
  // 1970-01-01 was a Thursday: (day + 3) mod 7 counts days since Monday.
  return day - ((((day + 3) % 7) + 7) % 7);
}

/** The 1st of the month `monthsLater` months after the one holding the day. */
export function monthStart(day: number, monthsLater = 0): number {
  const { year, month } = civilFromDays(day);
  return daysFromCivil(year, month + monthsLater, 1);
}

/** The day a bucket of this unit starts on, for a day inside it: itself, its week's Monday, its month's 1st. */
export function bucketFirstDay(unit: BucketUnit, day: number): number {
  if (unit === "week") return weekStart(day);
  if (unit === "month") return monthStart(day);
  return day;
}

/** Whole months from the month holding day `a` to the one holding day `b`. */
export function monthsBetween(a: number, b: number): number {
  const ca = civilFromDays(a);
  const cb = civilFromDays(b);
  return (cb.year - ca.year) * 12 + (cb.month - ca.month);
}

/** The same day a year earlier (29 February becomes 28 February). */
export function dayAYearBefore(day: number): number {
  const c = civilFromDays(day);
  return Math.min(daysFromCivil(c.year - 1, c.month, c.day), daysFromCivil(c.year - 1, c.month + 1, 1) - 1);
}

/**
 * A UTC bucket start as text: the date for a day or longer bucket, the date-time for an hour (and for any
 * second that is not a midnight, which no day bucket starts on).
 */
export function bucketDateText(sec: number, hourly: boolean): string {
  return hourly || sec % SECONDS_PER_DAY !== 0 ? formatDateTime(sec) : formatDate(sec);
}
