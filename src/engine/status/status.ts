/** The status document of jobs read (read.ts) at one instant, each with the lag it is allowed. */
import type { JobStatus, StatusDocument } from "./document";
import { jobStatus, notStartedStatus } from "./job-status";
import type { JobRead, NotStartedRead } from "./read";

export function statusDocument(
  jobs: readonly JobRead[],
  now: Date,
  maxLagOf: (job: JobRead | undefined) => number | undefined,
  unreadable: readonly string[],
  notStarted: readonly NotStartedRead[] = [],
): StatusDocument {
  const statuses: JobStatus[] = jobs.map((job) => jobStatus({ ...job, maxLagDays: maxLagOf(job) }, now));
  // A job with no state has no profile known: the lag of the flag or of the config file's own setting.
  const waiting = notStarted.map((job) => notStartedStatus(job, maxLagOf(undefined), now));
  return {
    now: now.toISOString(),
    alert: [...statuses, ...waiting].some((job) => job.alerts.length > 0),
    jobs: statuses,
    not_started: waiting,
    unreadable: [...unreadable],
  };
}
