/** The status document of jobs read (read.ts) at one instant, each with the lag it is allowed. */
import type { JobStatus, StatusDocument } from "./document";
import { jobStatus } from "./job-status";
import type { JobRead } from "./read";

export function statusDocument(
  jobs: readonly JobRead[],
  now: Date,
  maxLagOf: (job: JobRead) => number | undefined,
  unreadable: readonly string[],
): StatusDocument {
  const statuses: JobStatus[] = jobs.map((job) => jobStatus({ ...job, maxLagDays: maxLagOf(job) }, now));
  return {
    now: now.toISOString(),
    alert: statuses.some((job) => job.alerts.length > 0),
    jobs: statuses,
    unreadable: [...unreadable],
  };
}
