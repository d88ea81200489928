/** `--summary json`: how the run ended, as one JSON object on stderr or in --summary-file (written atomically). */
import { stat, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { writePrivateFile } from "../../io/private-file";
import type { Context } from "../context";
import type { ReportFlags } from "./command";

export interface RunSummary {
  outcome: "ok" | "failed" | "nothing to do";
  error?: string;
  from: string | undefined;
  to: string | undefined;
  days_written: number;
  days_changed: number;
  days_unchanged: number;
  rows: number;
  requests: number;
  retries: number;
}

export async function writeSummary(
  ctx: Context,
  flags: Pick<ReportFlags, "summary" | "summaryFile">,
  summary: RunSummary,
  job: string | undefined,
): Promise<void> {
  if (flags.summary === undefined && flags.summaryFile === undefined) return;
  const text = `${JSON.stringify({ job: job ?? null, ...summary })}\n`;
  if (flags.summaryFile === undefined) {
    ctx.io.err.write(text);
    return;
  }
  const path = resolve(ctx.cwd, flags.summaryFile);
  // A device or a pipe (/dev/stderr, a FIFO a monitor reads) is written into, never replaced by a file.
  const existing = await stat(path).catch(() => undefined);
  if (existing && !existing.isFile()) await writeFile(path, text, { flag: "a" });
  else await writePrivateFile(path, text);
}
