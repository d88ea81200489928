/** `--summary json`: how the run ended, as one JSON object on stderr or in --summary-file (written atomically). */
import { stat, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { ApiEvent } from "../../api";
import { writePrivateFile } from "../../io/private-file";
import { SinkError } from "../../io/sink";
import type { Context } from "../context";
import type { ReportFlags } from "./command";

export interface RunSummary {
  outcome: "ok" | "failed" | "nothing to do";
  error?: string;
  from: string | undefined;
  to: string | undefined;
  /** Whole-day targets only ({date} files, a database, --incremental). */
  days_written?: number;
  days_changed?: number;
  days_unchanged?: number;
  rows: number;
  requests: number;
  retries: number;
}

/** The summary of a run into whole-day targets. */
export interface DaySummary extends RunSummary {
  days_written: number;
  days_changed: number;
  days_unchanged: number;
}

/** Counts an API event into a summary: each answer or failed try is a request; a retry is also a retry. */
export function countEvent(summary: Pick<RunSummary, "requests" | "retries">, event: ApiEvent): void {
  if (event.kind === "retry") summary.retries += 1;
  else summary.requests += 1;
}

export async function writeSummary(
  ctx: Context,
  flags: Pick<ReportFlags, "summary" | "summaryFile">,
  summary: RunSummary,
  job: string | undefined,
): Promise<void> {
  await writeSummaryObject(ctx, flags, { job: job ?? null, ...summary });
}

/** The one JSON object of --summary, on stderr or into --summary-file. */
export async function writeSummaryObject(
  ctx: Context,
  flags: Pick<ReportFlags, "summary" | "summaryFile">,
  summary: object,
): Promise<void> {
  if (flags.summary === undefined && flags.summaryFile === undefined) return;
  const text = `${JSON.stringify(summary)}\n`;
  if (flags.summaryFile === undefined) {
    ctx.io.err.write(text);
    return;
  }
  const path = resolve(ctx.cwd, flags.summaryFile);
  try {
    // A device or a pipe (/dev/stderr, a FIFO a monitor reads) is written into, never replaced by a file.
    const existing = await stat(path).catch(() => undefined);
    if (existing && !existing.isFile()) await writeFile(path, text, { flag: "a" });
    else await writePrivateFile(path, text);
  } catch (error) {
    // `cannot write FILE: no space left on device` (exit 1), not an unexpected error.
    throw SinkError.from(flags.summaryFile, error);
  }
}
