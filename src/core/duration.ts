/**
 * Every duration adreport reads or says. The one duration grammar: a decimal number with an optional unit,
 * `ms`, `s`, `m` or `h` (`30s`, `1.5m`, `500ms`, `1h`). A bare number is in `bareUnit`: seconds for settings
 * (`timeout 30`), milliseconds for `serve --faults delay:50`. And a wait or a pace in words for messages.
 */
const UNIT_SECONDS = { ms: 0.001, s: 1, m: 60, h: 3600 } as const;
export type DurationUnit = keyof typeof UNIT_SECONDS;

/** The duration in seconds (0 included: each caller sets its own lower bound), or undefined for other text. */
export function parseDuration(text: string, bareUnit: DurationUnit = "s"): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_SECONDS[(match[2] as DurationUnit | undefined) ?? bareUnit];
}

/** `600` -> `10m`, `90` -> `90s`, `0.5` -> `500ms`: seconds in the grammar above, the way a limit was most likely written. */
export function formatDuration(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)}ms`;
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}

const HOUR_MS = 3_600_000;

/** `45 s`, `12 min`, `5 h`, `2.5 h`, `1157 days`: a wait the way a person reads it, rounded up. */
export function formatWait(ms: number): string {
  if (ms <= 120_000) return `${Math.ceil(ms / 1000)} s`;
  if (ms < 2 * HOUR_MS) return `${Math.ceil(ms / 60_000)} min`;
  if (ms < 48 * HOUR_MS) return `${Math.round((ms / HOUR_MS) * 10) / 10} h`;
  const days = Math.round(ms / (24 * HOUR_MS));
  return Number.isFinite(days) ? `${days} days` : "for ever";
}

/** `1.5 s`, `25 s`, `12 min`: an interval between requests, to the nearest (a wait is rounded up). */
export function formatInterval(ms: number): string {
  if (ms < 10_000) return `${Math.round(ms / 100) / 10} s`;
  return ms < 120_000 ? `${Math.round(ms / 1000)} s` : formatWait(ms);
}
