/**
 * What makes an export job one job: the profile, the service, the query without its dates and the output
 * target. Two cron lines that differ only in their dates are one job; any other difference is another
 * job with a state of its own. A job's id is the first 8 hex digits of the SHA-256 of that identity.
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

export function jobId(job: JobIdentity): string {
  const canonical = JSON.stringify([
    job.profile,
    job.baseUrl,
    job.dimensions,
    job.metrics,
    job.granularity,
    job.campaignId,
    job.adId,
    job.target,
  ]);
  return createHash("sha256").update(canonical).digest("hex").slice(0, 8);
}
