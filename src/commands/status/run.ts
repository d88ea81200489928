/**
 * `adreport status [JOB...]`: the jobs' status on stdout (a line a job, one job's summary, or the JSON
 * document), then exit 8 naming on stderr each job that lags more than allowed, failed or stalled.
 */
import { AdreportError, StatusAlertError, UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import { jobStore } from "../../engine/days/job-stores";
import type { JobStatus, StatusDocument } from "../../engine/status/document";
import { type JobRead, readAllJobs, readJob } from "../../engine/status/read";
import { statusLines, statusSummary } from "../../engine/status/render";
import { statusDocument } from "../../engine/status/status";
import { writeChunk } from "../../io/write";
import type { Context } from "../context";
import { pathsOf, storesToSearch } from "../shared/job-state";
import { readConfig } from "../shared/settings";
import { stateFolder } from "../shared/state-folder";
import type { StatusOptions } from "./flags";
import { flagMaxLag, maxLagFor } from "./max-lag";

/** The status of the jobs named (or, none named, of every job), each with the lag it is allowed. */
export async function statusOf(
  ctx: Context,
  ids: readonly string[],
  options: { stateFile?: string | undefined; target?: string | undefined; maxLag?: string | undefined },
): Promise<{ document: StatusDocument; named: boolean; alert: string | undefined }> {
  const flag = flagMaxLag(options.maxLag);
  const { file, data } = await readConfig(ctx);
  const config = { data, path: file.path };
  const unreadable: string[] = [];
  let jobs: JobRead[];
  const named = ids.length > 0 || options.stateFile !== undefined;
  if (named) {
    jobs = [];
    // With --state-file, a job named too is refused by pathsOf.
    for (const id of options.stateFile !== undefined ? [ids[0]] : ids) {
      const paths = await pathsOf(ctx, id, options.stateFile, options.target);
      const job = await readJob(paths, ctx.user, paths.store).finally(() => paths.store.close());
      if (job === undefined) {
        throw new UsageError(id !== undefined ? `no job ${printable(id)}` : `no state in ${paths.state}`, {
          hint: "adreport state list shows the jobs",
        });
      }
      if (!jobs.some((j) => j.state.id === job.state.id && j.where === job.where)) jobs.push(job);
    }
  } else {
    jobs = await everyJob(ctx, options.target, (error) => {
      unreadable.push(error.message);
      ctx.io.err.write(`adreport: warning: ${printable(error.message)}\n`);
    });
  }
  const document = statusDocument(jobs, ctx.now(), (job) => maxLagFor(flag, config, job.state.job.profile), unreadable);
  // Alerts on for the run as a whole: no job found, or one that cannot be read, is then an alert too.
  const alertsOn = flag !== undefined || maxLagFor(undefined, config, null) !== undefined;
  const alert = alertLine(document, alertsOn);
  return { document: { ...document, alert: alert !== undefined }, named, alert };
}

/** Every job wherever it is kept: a job its database keeps is read there, not from this host's copy. */
async function everyJob(ctx: Context, target: string | undefined, unreadable: (error: Error) => void) {
  const { stores, named } = await storesToSearch(ctx, target);
  const jobs: JobRead[] = [];
  try {
    for (const store of stores) {
      // A database that cannot be reached now hides none of the others' jobs (this host's copies stay listed).
      const found = await readAllJobs(stateFolder(ctx), ctx.user, unreadable, store).catch((error: unknown) => {
        if (store === named || store === jobStore() || !(error instanceof AdreportError)) throw error;
        unreadable(error);
        return [];
      });
      for (const job of found) {
        if (!jobs.some((j) => j.state.id === job.state.id)) jobs.push(job);
      }
    }
  } finally {
    for (const store of stores) await store.close();
  }
  return jobs.sort((a, b) => (a.state.id < b.state.id ? -1 : a.state.id > b.state.id ? 1 : 0));
}

/** What needs a look, one line for stderr; undefined when nothing does. */
function alertLine(document: StatusDocument, alertsOn: boolean): string | undefined {
  const alerting = document.jobs.filter((job: JobStatus) => job.alerts.length > 0);
  const parts = alerting.map((job) => `${job.job} (${job.alerts.map((a) => a.kind).join(", ")})`);
  if (alertsOn && document.unreadable.length > 0) parts.push(`${document.unreadable.length} that cannot be read`);
  if (alertsOn && document.jobs.length === 0 && document.unreadable.length === 0) return "no job to check";
  if (parts.length === 0) return undefined;
  const total = document.jobs.length + document.unreadable.length;
  return `${parts.length} of ${total} ${total === 1 ? "job needs" : "jobs need"} a look: ${parts.join(", ")}`;
}

export async function runStatus(ctx: Context, ids: string[], options: StatusOptions): Promise<void> {
  const { document, named, alert } = await statusOf(ctx, ids, options);
  if (options.format === "json") {
    await writeChunk(ctx.io.out, `${JSON.stringify(document, null, 2)}\n`);
  } else if (document.jobs.length === 0) {
    if (document.unreadable.length === 0) {
      ctx.io.err.write("adreport: no incremental jobs yet (adreport report --incremental ... starts one)\n");
    }
  } else if (named && document.jobs.length === 1) {
    await writeChunk(ctx.io.out, statusSummary(document.jobs[0] as JobStatus));
  } else {
    await writeChunk(ctx.io.out, statusLines(document.jobs));
  }
  if (alert !== undefined) {
    const one = document.jobs.find((job) => job.alerts.length > 0);
    throw new StatusAlertError(alert, {
      hint:
        one === undefined || (named && document.jobs.length === 1) ? undefined : `adreport status ${one.job} shows why`,
    });
  }
}
