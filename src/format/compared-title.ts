/**
 * With --compare, what was compared, as a title above the table: `2026-11-17..2026-11-23 compared with
 * 2026-11-10..2026-11-16 (the period before; UTC)`. Read from meta's `compare`, `current` and `previous`;
 * whole days are shown as dates, anything else as the instants meta holds.
 */
import type { ReportMeta } from "../contract";

interface Range {
  from: string;
  to: string;
}

const DAY_START = /^(\d{4}-\d{2}-\d{2})T00:00:00(?:Z|[+-]\d{2}:\d{2})$/;
const DAY_END = /^(\d{4}-\d{2}-\d{2})T23:59:59(?:Z|[+-]\d{2}:\d{2})$/;

function isRange(value: unknown): value is Range {
  if (typeof value !== "object" || value === null) return false;
  const { from, to } = value as Record<string, unknown>;
  return typeof from === "string" && typeof to === "string";
}

function rangeText(range: Range): string {
  const from = DAY_START.exec(range.from)?.[1];
  const to = DAY_END.exec(range.to)?.[1];
  if (from === undefined || to === undefined) return `${range.from}..${range.to}`;
  return from === to ? from : `${from}..${to}`;
}

const MODE_WORDS: Readonly<Record<string, string>> = {
  previous: "the period before",
  year: "the same dates a year earlier",
};

/** The title, or undefined when meta says nothing was compared. */
export function comparedTitle(meta: ReportMeta): string | undefined {
  const { compare, current, previous, tz } = meta as Record<string, unknown>;
  if (typeof compare !== "string" || !isRange(current) || !isRange(previous)) return undefined;
  const zone = typeof tz === "string" ? tz : "UTC";
  const mode = Object.hasOwn(MODE_WORDS, compare) ? MODE_WORDS[compare] : compare;
  return `${rangeText(current)} compared with ${rangeText(previous)} (${mode}; ${zone})`;
}
