/**
 * What a service says of its rate limit, read from the IETF fields of draft-ietf-httpapi-ratelimit-headers
 * (`RateLimit-Policy: "default";q=20;w=1`, `RateLimit: "default";r=5;t=1`, one item per policy), from the
 * draft's older forms (`RateLimit: limit=20, remaining=5, reset=1`; `RateLimit-Limit`, `-Remaining`,
 * `-Reset`) and from the common `X-RateLimit-*` fields. Anything unreadable is ignored, never an error.
 */
/** A policy whose window is this long (an hour, a day) is a quota to spend, not a pace to keep. */
const SLOW_WINDOW_MS = 3_600_000;

type Headers = Record<string, string | string[] | undefined>;

export interface RateSignal {
  /** The policy paced by (the one with the shortest window): `quota` requests per `windowMs`. */
  quota: number | undefined;
  windowMs: number | undefined;
  /** Requests left of that policy's quota, and when it resets. */
  remaining: number | undefined;
  resetMs: number | undefined;
  /** When some policy's quota is spent (0 left): how long until it resets, the longest such. */
  spentMs: number | undefined;
}

interface Member {
  name: string;
  params: Map<string, string>;
}

function text(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

/** A structured-field list or dictionary, tolerantly: `"a";q=1;w=2, b=3` → members with their parameters. */
function members(field: string): Member[] {
  return field
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => {
      const [head = "", ...rest] = part.split(";").map((p) => p.trim());
      const params = new Map<string, string>();
      for (const p of rest) {
        const [key, value = ""] = p.split("=");
        if (key) params.set(key.trim().toLowerCase(), value.trim().replace(/^"|"$/g, ""));
      }
      const eq = head.indexOf("=");
      // draft-07's dictionary members (`remaining=5`) and the older bare quota (`10;w=1`) read as parameters.
      if (eq > 0 && !head.startsWith('"'))
        params.set(head.slice(0, eq).trim().toLowerCase(), head.slice(eq + 1).trim());
      else if (/^\d+$/.test(head)) params.set("q", head);
      return { name: head.replace(/^"|"$/g, ""), params };
    });
}

function number(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value.trim())) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** A Unix time in milliseconds lies this near the clock; as seconds or a Unix time in seconds, far beyond. */
const MS_CLOCK_SPAN = 366 * 86_400_000;

/**
 * Seconds until a reset; a value that can only be a Unix time (X-RateLimit-Reset often is) as such, in
 * seconds, or in milliseconds when it is within a year of the clock as such.
 */
function resetMsOf(value: number | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  if (Math.abs(value - nowMs) < MS_CLOCK_SPAN) return Math.max(0, value - nowMs);
  return value > 1_000_000_000 ? Math.max(0, value * 1000 - nowMs) : value * 1000;
}

interface Policy {
  name: string;
  quota: number | undefined;
  windowMs: number | undefined;
  remaining: number | undefined;
  resetMs: number | undefined;
}

function policies(headers: Headers, nowMs: number): Policy[] {
  const byName = new Map<string, Policy>();
  const policyOf = (name: string): Policy => {
    let policy = byName.get(name);
    if (!policy) {
      policy = { name, quota: undefined, windowMs: undefined, remaining: undefined, resetMs: undefined };
      byName.set(name, policy);
    }
    return policy;
  };
  for (const m of members(text(headers["ratelimit-policy"]) ?? "")) {
    const policy = policyOf(m.params.has("limit") ? "" : m.name);
    policy.quota = number(m.params.get("q") ?? m.params.get("limit"));
    const w = number(m.params.get("w"));
    policy.windowMs = w === undefined ? undefined : w * 1000;
  }
  const current = members(text(headers.ratelimit) ?? "");
  const dictionary = current.some((m) => m.params.has("remaining"));
  for (const m of dictionary ? [{ name: "", params: new Map(current.flatMap((c) => [...c.params])) }] : current) {
    const policy = policyOf(dictionary ? (byName.keys().next().value ?? "") : m.name);
    policy.remaining = number(m.params.get("r") ?? m.params.get("remaining"));
    policy.resetMs = resetMsOf(number(m.params.get("t") ?? m.params.get("reset")), nowMs);
    policy.quota ??= number(m.params.get("limit"));
  }
  for (const prefix of ["ratelimit-", "x-ratelimit-"]) {
    const remaining = number(text(headers[`${prefix}remaining`])?.split(",")[0]);
    if (remaining === undefined) continue;
    // `RateLimit-Limit: 10, 10;w=1`: the quota, then the policies it comes from with their windows.
    const limits = members(text(headers[`${prefix}limit`]) ?? "");
    const limit = limits.find((m) => m.params.has("w")) ?? limits[0];
    const policy = policyOf(byName.size === 1 ? (byName.keys().next().value ?? "") : "");
    policy.remaining = remaining;
    policy.resetMs = resetMsOf(number(text(headers[`${prefix}reset`])), nowMs);
    policy.quota ??= number(limit?.params.get("q"));
    const w = number(limit?.params.get("w"));
    if (w !== undefined) policy.windowMs ??= w * 1000;
    break;
  }
  return [...byName.values()];
}

/** The service's rate limit as this answer tells it, or undefined when it tells nothing. */
export function readRateSignal(headers: Headers, nowMs: number): RateSignal | undefined {
  const all = policies(headers, nowMs).filter((p) => p.quota !== undefined || p.remaining !== undefined);
  if (all.length === 0) return undefined;
  const shortest = [...all].sort(
    (a, b) => (a.windowMs ?? Number.POSITIVE_INFINITY) - (b.windowMs ?? Number.POSITIVE_INFINITY),
  )[0] as Policy;
  // None left of the policy paced by is its bucket's ordinary state; of another (or of one too slow to pace
  // by, a day's quota), it means waiting until it resets. So does a reset further than the window: no
  // bucket of that window refills so late, and without a window there is no pace to keep, only the reset.
  const spent = all
    .filter((p) => p.remaining === 0 && p.resetMs !== undefined)
    .filter((p) => p !== shortest || (p.windowMs ?? 0) >= SLOW_WINDOW_MS || (p.resetMs as number) > (p.windowMs ?? 0))
    .map((p) => p.resetMs as number);
  return {
    quota: shortest.quota,
    windowMs: shortest.windowMs,
    remaining: shortest.remaining,
    resetMs: shortest.resetMs,
    spentMs: spent.length === 0 ? undefined : Math.max(...spent),
  };
}
