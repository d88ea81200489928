/**
 * A job's id: the first 8 hex digits of the SHA-256 of its identity, the target in its kind's one text
 * (targets/registry.ts), so a job keeps its id whatever shape its state keeps the target in. A target
 * whose metrics may grow (a table adds a column) leaves them out.
 */
import { createHash } from "node:crypto";
import type { JobIdentity } from "../../state/job";
import { kindOf } from "../../targets/registry";

export function jobId(job: JobIdentity): string {
  return idOf(job, kindOf(job.target).grows ? null : job.metrics);
}

/** The id earlier builds gave a job whose metrics may grow, its metrics included: a state under it is taken over once. */
export function earlierJobId(job: JobIdentity): string | undefined {
  return kindOf(job.target).grows ? idOf(job, job.metrics) : undefined;
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
    kindOf(job.target).text(job.target),
  ]);
  return createHash("sha256").update(canonical).digest("hex").slice(0, 8);
}
