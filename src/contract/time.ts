/**
 * Instants of the `from` / `to` parameters (docs/service.md §2): ISO 8601 date-times with `Z` or an offset,
 * or bare dates. Kept as whole seconds plus nanoseconds so the 90-day edge is compared exactly.
 */
export interface Instant {
  /** Whole seconds since the Unix epoch (UTC), floored. */
  readonly sec: number;
  /** 0..999_999_999 */
  readonly nano: number;
}

/** A date alone (`2026-11-01`). */
export const BARE_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// A space where the offset's sign belongs is a "+" that reached a query string unencoded (curl users).
export const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+ -])(\d{2})(?::?(\d{2}))?)$/;

export const SECONDS_PER_DAY = 86_400;
const SECONDS_PER_HOUR = 3_600;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export function civilFromDays(days: number): { year: number; month: number; day: number } {
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

function daysInMonth(year: number, month: number): number {
  return daysFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - daysFromCivil(year, month, 1);
}

function validDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * Parses `from` or `to`. A bare date means the start of that UTC day for `from` and its last second
 * (23:59:59Z) for `to`. Returns undefined for anything else.
 */
export function parseInstant(text: string, role: "from" | "to"): Instant | undefined {
  const bare = BARE_DATE.exec(text);
  if (bare) {
    const [year, month, day] = [Number(bare[1]), Number(bare[2]), Number(bare[3])];
    if (!validDate(year, month, day)) return undefined;
    const start = daysFromCivil(year, month, day) * SECONDS_PER_DAY;
    return { sec: role === "from" ? start : start + SECONDS_PER_DAY - 1, nano: 0 };
  }
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offset = 0;
  if (m[8] === undefined) {
    const offsetHours = Number(m[10]);
    const offsetMinutes = m[11] === undefined ? 0 : Number(m[11]);
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    offset = (m[9] === "-" ? -1 : 1) * (offsetHours * SECONDS_PER_HOUR + offsetMinutes * 60);
  }
  const nano = m[7] === undefined ? 0 : Number(m[7].padEnd(9, "0"));
  const sec =
    daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * SECONDS_PER_HOUR + minute * 60 + second - offset;
  return { sec, nano };
}

/** Seconds from a to b, exact to the nanosecond. */
export function secondsBetween(a: Instant, b: Instant): number {
  return b.sec - a.sec + (b.nano - a.nano) / 1e9;
}

export function compareInstants(a: Instant, b: Instant): number {
  return a.sec !== b.sec ? a.sec - b.sec : a.nano - b.nano;
}

/** True when b - a is more than `seconds`, compared without floating-point rounding. */
export function spanExceeds(a: Instant, b: Instant, seconds: number): boolean {
  const whole = b.sec - a.sec;
  return whole > seconds || (whole === seconds && b.nano > a.nano);
}

/** The first whole second at or after the instant. */
export function ceilSeconds(i: Instant): number {
  return i.nano > 0 ? i.sec + 1 : i.sec;
}

/** `2026-11-01T13:00:00Z` */
export function formatDateTime(sec: number): string {
  return `${formatDate(sec)}T${new Date(sec * 1000).toISOString().slice(11, 19)}Z`;
}

/** `2026-11-01` (the UTC day the second falls in). */
export function formatDate(sec: number): string {
  const { year, month, day } = civilFromDays(Math.floor(sec / SECONDS_PER_DAY));
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
