/** The engine's events as `adreport report` shows them: lines on stderr, a spinner, the --summary object. */

import { printable } from "../../core/printable";
import type { EngineEvents } from "../../engine/events";
import type { Context } from "../context";
import { progressView } from "./progress";
import { type SummaryChoice, writeSummaryObject } from "./summary-out";

/**
 * `announce`: say what an `-o FILE` export wrote, for a person at a terminal (not with -q, not into a log;
 * never for an account's part of a run over several, whose table says it).
 */
export function stderrEvents(ctx: Context, summary: SummaryChoice, announce = false): EngineEvents {
  const line = (text: string) => ctx.io.err.write(`adreport: ${text}\n`);
  const count = (rows: number) => `${rows.toLocaleString("en-US")} ${rows === 1 ? "row" : "rows"}`;
  return {
    ...(announce &&
      ctx.io.errIsTTY && { wrote: (path: string, rows: number) => line(`wrote ${count(rows)} to ${printable(path)}`) }),
    warning: (text) => line(`warning: ${text}`),
    note: line,
    dayChanged: (day, what) => line(`${day}: ${what}`),
    progress: (options) => progressView(ctx.io, options),
    summary: (object) => writeSummaryObject(ctx, summary, object),
  };
}
