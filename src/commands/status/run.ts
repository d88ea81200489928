/**
 * `adreport status [JOB...]`: the jobs' status on stdout (a line a job, one job's summary, or the JSON
 * document), then exit 8 naming on stderr each job that lags more than allowed, failed or stalled.
 */
import { AdreportError, StatusAlertError, UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import { jobStore } from "../../engine/days/job-stores";
import type { JobStatus, NotStartedStatus, StatusDocument } from "../../engine/status/document";
import {
  type JobRead,
  type NotStartedRead,
  readAllJobs,
  readAllNotStarted,
  readJob,
  readNotStarted,
} from "../../engine/status/read";
import { notStartedSummary, statusLines, statusSummary } from "../../engine/status/render";
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
  // Jobs whose first run failed: a run recorded, no state. Left out, a job that never worked would look green.
  let notStarted: NotStartedRead[];
  const named = ids.length > 0 || options.stateFile !== undefined;
  if (named) {
    jobs = [];
    notStarted = [];
    // With --state-file, a job named too is refused by pathsOf.
    for (const id of options.stateFile !== undefined ? [ids[0]] : ids) {
      const paths = await pathsOf(ctx, id, options.stateFile, options.target);
      const job = await readJob(paths, ctx.user, paths.store).finally(() => paths.store.close());
      if (job === undefined) {
        // With --state-file the job's id is not known before it has a state: it is named by that file.
        const waiting = await readNotStarted(paths, id?.trim().toLowerCase() ?? paths.state, ctx.user);
        if (waiting !== undefined) {
          if (!notStarted.some((j) => j.where === waiting.where)) notStarted.push(waiting);
          continue;
        }
        throw new UsageError(id !== undefined ? `no job ${printable(id)}` : `no state in ${paths.state}`, {
          hint: "adreport state list shows the jobs",
        });
      }
      if (!jobs.some((j) => j.state.id === job.state.id && j.where === job.where)) jobs.push(job);
    }
  } else {
    const refused = (error: Error) => {
      unreadable.push(error.message);
      ctx.io.err.write(`adreport: warning: ${printable(error.message)}\n`);
    };
    jobs = await everyJob(ctx, options.target, refused);
    notStarted = await readAllNotStarted(stateFolder(ctx), ctx.user, refused);
  }
  const document = statusDocument(
    jobs,
    ctx.now(),
    (job) => maxLagFor(flag, config, job === undefined ? null : job.state.job.profile),
    unreadable,
    notStarted,
  );
  // Alerts on for the run as a whole: no job found, or one that cannot be read, is then an alert too.
  const alertsOn = flag !== undefined || maxLagFor(undefined, config, null) !== undefined;
  const alert = alertLine(document, alertsOn, named ? undefined : stateFolder(ctx));
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

/** How many jobs the alert line names. */
const NAMED_IN_ALERT = 20;

/** What needs a look, one line for stderr; undefined when nothing does. `folder`: where every job was looked for. */
function alertLine(document: StatusDocument, alertsOn: boolean, folder: string | undefined): string | undefined {
  const alerting = document.jobs.filter((job: JobStatus) => job.alerts.length > 0);
  const parts = alerting.map((job) => `${job.job} (${job.alerts.map((a) => a.kind).join(", ")})`);
  for (const job of document.not_started.filter((j: NotStartedStatus) => j.alerts.length > 0)) {
    parts.push(`${job.job} (${job.alerts.map((a) => a.kind).join(", ")}: no day exported yet)`);
  }
  const needing = parts.length + (alertsOn ? document.unreadable.length : 0);
  // First, so that the line never leaves it out among the jobs it does not name.
  if (alertsOn && document.unreadable.length > 0) parts.unshift(`${document.unreadable.length} that cannot be read`);
  const total = document.jobs.length + document.not_started.length + document.unreadable.length;
  if (alertsOn && total === 0) return folder === undefined ? "no job to check" : `no job to check in ${folder}`;
  if (parts.length === 0) return undefined;
  // An agency's hundreds of jobs would make it a line of kilobytes (a probe's output is cut at a few): the rest is on stdout.
  const named = parts.slice(0, NAMED_IN_ALERT).join(", ");
  const rest = parts.length > NAMED_IN_ALERT ? ` and ${parts.length - NAMED_IN_ALERT} more` : "";
  return `${needing} of ${total} ${total === 1 ? "job needs" : "jobs need"} a look: ${named}${rest}`;
}

export async function runStatus(ctx: Context, ids: string[], options: StatusOptions): Promise<void> {
  const { document, named, alert } = await statusOf(ctx, ids, options);
  let alerted: StatusAlertError | undefined;
  if (alert !== undefined) {
    const one = [...document.jobs, ...document.not_started].find((job) => job.alerts.length > 0);
    const single = named && document.jobs.length + document.not_started.length === 1;
    const hint = one === undefined || single ? undefined : `adreport status ${one.job} shows why`;
    alerted = new StatusAlertError(alert, { hint, said: true });
  }
  const sayAlert = () => {
    if (alerted === undefined) return;
    const { message, hint } = alerted;
    ctx.io.err.write(`adreport: ${printable(message)}\n${hint === undefined ? "" : `hint: ${hint}\n`}`);
  };
  // Into a pipe, said before the status: a reader that goes away (`| head -1`, `| grep -q`) ends the run
  // quietly, and the alert must not go with it. On a terminal, below the status, where it is read last.
  if (!ctx.io.outIsTTY) sayAlert();
  if (options.format === "json") {
    await writeChunk(ctx.io.out, `${JSON.stringify(document, null, 2)}\n`);
  } else if (document.jobs.length + document.not_started.length === 0) {
    if (document.unreadable.length === 0) {
      ctx.io.err.write("adreport: no incremental jobs yet (adreport report --incremental ... starts one)\n");
    }
  } else if (named && document.jobs.length === 1 && document.not_started.length === 0) {
    await writeChunk(ctx.io.out, statusSummary(document.jobs[0] as JobStatus));
  } else if (named && document.jobs.length === 0 && document.not_started.length === 1) {
    await writeChunk(ctx.io.out, notStartedSummary(document.not_started[0] as NotStartedStatus));
  } else {
    await writeChunk(ctx.io.out, statusLines(document.jobs, document.not_started));
  }
  if (ctx.io.outIsTTY) sayAlert();
  if (alerted !== undefined) throw alerted;
}
