/** The engine's events as `adreport report` shows them: lines on stderr, a spinner, the --summary object. */
import type { EngineEvents } from "../../engine/events";
import type { Context } from "../context";
import { progressView } from "./progress";
import { type SummaryChoice, writeSummaryObject } from "./summary-out";

export function stderrEvents(ctx: Context, summary: SummaryChoice): EngineEvents {
  const line = (text: string) => ctx.io.err.write(`adreport: ${text}\n`);
  return {
    warning: (text) => line(`warning: ${text}`),
    note: line,
    dayChanged: (day, what) => line(`${day}: ${what}`),
    progress: (options) => progressView(ctx.io, options),
    summary: (object) => writeSummaryObject(ctx, summary, object),
  };
}
