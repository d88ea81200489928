/**
 * What makes an export job one job: the profile, the service, the query without its dates and the output
 * target. Two cron lines that differ only in their dates are one job; any other difference is another
 * job with a state of its own. The target is its kind's data (targets/registry.ts knows the kinds: state/
 * imports no targets/). A job's id is the first 8 hex digits of the SHA-256 of that identity (engine/days/job-id.ts).
 */

/**
 * A job's output target as its state keeps it: the name of its kind and the kind's fields, all text
 * (`{ kind: "sqlite", path: "/abs/ads.db", table: "t" }`). An earlier adreport kept it as one text
 * (`sqlite:/abs/ads.db#t`), which its kind reads back.
 */
export interface JobTarget {
  readonly kind: string;
  readonly [field: string]: string;
}

/** How a state's target is read, by targets/registry.ts: structured or an earlier text; undefined when no kind's. */
export type TargetReader = (value: unknown) => JobTarget | undefined;

export interface JobIdentity {
  profile: string | null;
  baseUrl: string;
  dimensions: string[];
  metrics: string[];
  granularity: string;
  campaignId: number | null;
  adId: number | null;
  target: JobTarget;
}

const isTexts = (value: unknown): boolean => Array.isArray(value) && value.every((v) => typeof v === "string");
const isIdOrNull = (value: unknown): boolean => value === null || Number.isSafeInteger(value);

/** A target in either shape a state file may hold it: a kind's fields, or an earlier adreport's text. */
export function isStoredTarget(value: unknown): value is string | JobTarget {
  if (typeof value === "string") return true;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return (
    typeof (value as { kind?: unknown }).kind === "string" && Object.values(value).every((v) => typeof v === "string")
  );
}

/** A state file's `job` as adreport writes it, its target still as stored (a hand edit may leave anything there). */
export function isJobIdentity(value: unknown): value is Omit<JobIdentity, "target"> & { target: string | JobTarget } {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    (v.profile === null || typeof v.profile === "string") &&
    typeof v.baseUrl === "string" &&
    isTexts(v.dimensions) &&
    isTexts(v.metrics) &&
    typeof v.granularity === "string" &&
    isIdOrNull(v.campaignId) &&
    isIdOrNull(v.adId) &&
    isStoredTarget(v.target)
  );
}

/** What makes job `other` another job than `job`, in words (`base URL http://a/ -> http://b/`). */
export function identityDifferences(other: JobIdentity, job: JobIdentity): string[] {
  const words = (value: unknown) => (Array.isArray(value) ? value.join(",") : value === null ? "none" : String(value));
  const fields: Array<[string, keyof JobIdentity]> = [
    ["profile", "profile"],
    ["base URL", "baseUrl"],
    ["dimensions", "dimensions"],
    ["metrics", "metrics"],
    ["granularity", "granularity"],
    ["campaign", "campaignId"],
    ["ad", "adId"],
  ];
  return fields
    .filter(([, key]) => words(other[key]) !== words(job[key]))
    .map(([name, key]) => `${name} ${words(other[key])} -> ${words(job[key])}`);
}
