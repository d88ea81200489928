/** `--summary json`: the run's outcome as one JSON object on stderr or in --summary-file (written atomically). */
import { stat, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { tagLine } from "../../core/log-codes";
import { writePrivateFile } from "../../io/private-file";
import { SinkError } from "../../io/sink";
import type { Context } from "../context";

export interface SummaryChoice {
  summary?: "json" | undefined;
  summaryFile?: string | undefined;
}

/** The one JSON object of --summary, on stderr or into --summary-file. */
export async function writeSummaryObject(ctx: Context, flags: SummaryChoice, summary: object): Promise<void> {
  if (flags.summary === undefined && flags.summaryFile === undefined) return;
  const text = `${JSON.stringify(summary)}\n`;
  if (flags.summaryFile === undefined) {
    tagLine(ctx.io.err, { code: "summary", message: "the run's summary", fields: { summary } });
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
