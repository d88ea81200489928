/**
 * A request rate as a user writes it (`--rate 10/s`, the `rate` setting `120/min`): at most `n` requests
 * per second or per minute.
 */
export interface Rate {
  n: number;
  per: "s" | "min";
}

const PER_MS = { s: 1000, min: 60_000 } as const;

/** `10/s`, `2.5/s`, `120/min` (also `/sec`, `/second`, `/m`, `/minute`); undefined for anything else. */
export function parseRate(text: string): Rate | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*\/\s*(s|sec|second|m|min|minute)$/i.exec(text.trim());
  if (!match) return undefined;
  const n = Number(match[1]);
  if (!(n > 0) || !Number.isFinite(n)) return undefined;
  const unit = (match[2] as string).toLowerCase();
  return { n, per: unit.startsWith("s") ? "s" : "min" };
}

/** The least time between two requests at this rate. */
export function rateIntervalMs(rate: Rate): number {
  return PER_MS[rate.per] / rate.n;
}

export function formatRate(rate: Rate): string {
  return `${rate.n}/${rate.per}`;
}
