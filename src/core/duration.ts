/**
 * The one duration grammar: a decimal number with an optional unit, `ms`, `s`, `m` or `h` (`30s`, `1.5m`,
 * `500ms`, `1h`). A bare number is in `bareUnit`: seconds for settings (`timeout 30`), milliseconds for
 * `serve --faults delay:50`.
 */
const UNIT_SECONDS = { ms: 0.001, s: 1, m: 60, h: 3600 } as const;
export type DurationUnit = keyof typeof UNIT_SECONDS;

/** The duration in seconds (0 included: each caller sets its own lower bound), or undefined for other text. */
export function parseDuration(text: string, bareUnit: DurationUnit = "s"): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_SECONDS[(match[2] as DurationUnit | undefined) ?? bareUnit];
}
