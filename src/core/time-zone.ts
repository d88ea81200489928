/**
 * An IANA time zone through Intl (no tz library): offsets, local days, and the local buckets (day, ISO week
 * from Monday, month) that adreport builds from the service's hourly UTC buckets. Offsets are looked up once
 * per UTC hour and kept: every entity of a report repeats the same hours. Only zones whose offset is a whole
 * hour are built from hourly buckets, so an offset never changes inside a UTC hour (see wholeHourProblem).
 */
import {
  type BucketUnit,
  bucketFirstDay,
  clockText,
  dayOfSecond,
  daysFromCivil,
  dayText,
  monthStart,
  monthsBetween,
  SECONDS_PER_DAY,
  SECONDS_PER_HOUR,
} from "./calendar";
import { UsageError } from "./errors";
import { quote } from "./quote";

/** Cached offsets and texts per zone; cleared when full, so memory stays bounded whatever the range. */
const MAX_CACHED = 50_000;

function two(n: number): string {
  return String(n).padStart(2, "0");
}

/** `+02:00`, `-07:00`, `+05:30` */
export function offsetText(seconds: number): string {
  const sign = seconds < 0 ? "-" : "+";
  const abs = Math.abs(seconds);
  const text = `${sign}${two(Math.floor(abs / 3600))}:${two(Math.floor((abs % 3600) / 60))}`;
  return abs % 60 === 0 ? text : `${text}:${two(abs % 60)}`;
}

export class TimeZone {
  private readonly parts: Intl.DateTimeFormat | undefined;
  private readonly offsets = new Map<number, number>();
  private readonly texts = new Map<number, string>();

  private constructor(
    readonly name: string,
    /** Where the name came from, for messages: `--tz`, `ADREPORT_TZ`, `the tz setting`. */
    readonly given = "--tz",
  ) {
    this.parts =
      name === "UTC"
        ? undefined
        : new Intl.DateTimeFormat("en-US", {
            timeZone: name,
            hourCycle: "h23",
            year: "numeric",
            month: "numeric",
            day: "numeric",
            hour: "numeric",
            minute: "numeric",
            second: "numeric",
            era: "short",
          });
  }

  static readonly UTC = new TimeZone("UTC");

  /** The zone of an IANA name (`Europe/Berlin`), in its canonical spelling; exit 2 for a name Intl does not know. */
  static open(name: string, what = "--tz"): TimeZone {
    const trimmed = name.trim();
    let canonical: string | undefined;
    try {
      // Intl accepts offsets such as `+01:00` as zones too; adreport wants a named zone, which knows its DST.
      if (/^[A-Za-z]/.test(trimmed)) {
        canonical = new Intl.DateTimeFormat("en-US", { timeZone: trimmed }).resolvedOptions().timeZone;
      }
    } catch {
      canonical = undefined;
    }
    if (canonical === undefined) {
      throw new UsageError(`${what}: ${quote(trimmed)} is not a time zone this system knows`, {
        hint: "use an IANA name such as Europe/Berlin, America/Los_Angeles or UTC",
      });
    }
    if (canonical === "UTC" || canonical === "Etc/UTC") return TimeZone.UTC;
    // Intl may answer an older alias (Asia/Kolkata -> Asia/Calcutta): keep the user's name, in Intl's case.
    return new TimeZone(canonical.toLowerCase() === trimmed.toLowerCase() ? canonical : trimmed, what);
  }

  /** Seconds east of UTC at the instant (constant through a UTC hour in a whole-hour zone). */
  offsetAt(sec: number): number {
    if (this.parts === undefined) return 0;
    const hour = Math.floor(sec / SECONDS_PER_HOUR);
    const cached = this.offsets.get(hour);
    if (cached !== undefined) return cached;
    const at = hour * SECONDS_PER_HOUR;
    const field: Record<string, string> = {};
    for (const part of this.parts.formatToParts(new Date(at * 1000))) field[part.type] = part.value;
    const year = Number(field.year) * (field.era === "BC" || field.era === "B" ? -1 : 1);
    const local =
      daysFromCivil(year, Number(field.month), Number(field.day)) * SECONDS_PER_DAY +
      Number(field.hour) * SECONDS_PER_HOUR +
      Number(field.minute) * 60 +
      Number(field.second);
    const offset = local - at;
    if (this.offsets.size >= MAX_CACHED) this.offsets.clear();
    this.offsets.set(hour, offset);
    return offset;
  }

  /** The local day (days since 1970-01-01) the instant falls in. */
  localDay(sec: number): number {
    return Math.floor((sec + this.offsetAt(sec)) / SECONDS_PER_DAY);
  }

  /**
   * The first whole UTC hour of a local day: its midnight, or the first hour after it where a DST change
   * skips midnight. Exact for whole-hour zones, the only ones adreport builds days for.
   */
  dayStart(day: number): number {
    let at =
      Math.floor((day * SECONDS_PER_DAY - this.offsetAt(day * SECONDS_PER_DAY)) / SECONDS_PER_HOUR) * SECONDS_PER_HOUR;
    while (this.localDay(at - SECONDS_PER_HOUR) >= day) at -= SECONDS_PER_HOUR;
    while (this.localDay(at) < day) at += SECONDS_PER_HOUR;
    return at;
  }

  /** The start of the local bucket of this unit that holds the instant. */
  bucketStart(unit: BucketUnit, sec: number): number {
    if (unit === "hour") return Math.floor(sec / SECONDS_PER_HOUR) * SECONDS_PER_HOUR;
    return this.dayStart(bucketFirstDay(unit, this.localDay(sec)));
  }

  /** How many buckets of this unit lie from the bucket starting at `from` to the one starting at `to`. */
  bucketsBetween(unit: BucketUnit, from: number, to: number): number {
    if (unit === "hour") return Math.round((to - from) / SECONDS_PER_HOUR);
    const a = this.localDay(from);
    const b = this.localDay(to);
    if (unit === "day") return b - a;
    if (unit === "week") return Math.round((b - a) / 7);
    return monthsBetween(a, b);
  }

  /** The start of the bucket `n` buckets after the one starting at `from`. */
  bucketAfter(unit: BucketUnit, from: number, n: number): number {
    if (unit === "hour") return from + n * SECONDS_PER_HOUR;
    const day = this.localDay(from);
    if (unit === "day") return this.dayStart(day + n);
    if (unit === "week") return this.dayStart(day + 7 * n);
    return this.dayStart(monthStart(day, n));
  }

  /** A bucket as shown: the local date (`2026-03-29`), or for hours the local date-time with its offset. */
  bucketText(sec: number, hourly: boolean): string {
    const key = hourly ? sec : -sec - 1;
    let text = this.texts.get(key);
    if (text === undefined) {
      text = hourly ? this.dateTimeText(sec) : dayText(this.localDay(sec));
      if (this.texts.size >= MAX_CACHED) this.texts.clear();
      this.texts.set(key, text);
    }
    return text;
  }

  /** `2026-03-29T03:00:00+02:00` */
  dateTimeText(sec: number): string {
    const offset = this.offsetAt(sec);
    const local = sec + offset;
    return `${dayText(dayOfSecond(local))}T${clockText(local)}${offsetText(offset)}`;
  }

  /** `2026-03-29` */
  dateText(sec: number): string {
    return dayText(this.localDay(sec));
  }

  /**
   * The first instant in [from, to] where the offset is not a whole hour, with that offset, or undefined.
   * Offsets are sampled every 12 hours and at both ends: a zone keeps an offset for months, never for hours.
   */
  wholeHourProblem(from: number, to: number): { at: number; offset: number } | undefined {
    if (this.parts === undefined) return undefined;
    const step = 12 * SECONDS_PER_HOUR;
    for (let at = from; ; at = Math.min(at + step, to)) {
      const offset = this.offsetAt(at);
      if (offset % SECONDS_PER_HOUR !== 0) return { at, offset };
      if (at >= to) return undefined;
    }
  }
}
