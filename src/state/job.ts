/**
 * What makes an export job one job: the profile, the service, the query without its dates and the output
 * target. Two cron lines that differ only in their dates are one job; any other difference is another
 * job with a state of its own. A database table's metrics belong to its job and may grow (a column is added):
 * they are not part of a database job's id. A job's id is the first 8 hex digits of the SHA-256 of that identity.
 */
import { createHash } from "node:crypto";

export interface JobIdentity {
  profile: string | null;
  baseUrl: string;
  dimensions: string[];
  metrics: string[];
  granularity: string;
  campaignId: number | null;
  adId: number | null;
  /** The output target: a file template's absolute path, or `sqlite:/abs/path#table`, `postgres://host/db#table`. */
  target: string;
}

const isTexts = (value: unknown): boolean => Array.isArray(value) && value.every((v) => typeof v === "string");
const isIdOrNull = (value: unknown): boolean => value === null || Number.isSafeInteger(value);

/** A state file's `job` as adreport writes it (a hand edit may leave anything there). */
export function isJobIdentity(value: unknown): value is JobIdentity {
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
    typeof v.target === "string"
  );
}

/** A database target (`sqlite:...#table`, `postgres://...#table`), not a `{date}` file template. */
export function isTableIdentity(target: string): boolean {
  return target.startsWith("sqlite:") || /^postgres(ql)?:\/\//i.test(target);
}

/** A job's target, read back: `{date}` files, or a table (`sqlite:/abs/path#table`, `postgres://...#table`). */
export type JobTarget =
  | { kind: "days"; template: string }
  | { kind: "sqlite"; path: string; table: string }
  | { kind: "postgres"; where: string; table: string };

export function jobTarget(target: string): JobTarget {
  if (!isTableIdentity(target)) return { kind: "days", template: target };
  const hash = target.lastIndexOf("#");
  const where = target.slice(0, hash);
  const table = target.slice(hash + 1);
  return where.startsWith("sqlite:")
    ? { kind: "sqlite", path: where.slice("sqlite:".length), table }
    : { kind: "postgres", where, table };
}

export function jobId(job: JobIdentity): string {
  return idOf(job, isTableIdentity(job.target) ? null : job.metrics);
}

/** The id earlier builds gave a database job, its metrics included: a state under it is taken over once. */
export function earlierJobId(job: JobIdentity): string | undefined {
  return isTableIdentity(job.target) ? idOf(job, job.metrics) : undefined;
}

function idOf(job: JobIdentity, metrics: string[] | null): string {
  const canonical = JSON.stringify([
    job.profile,
    job.baseUrl,
    job.dimensions,
    metrics,
    job.granularity,
    job.campaignId,
    job.adId,
    job.target,
  ]);
  return createHash("sha256").update(canonical).digest("hex").slice(0, 8);
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
