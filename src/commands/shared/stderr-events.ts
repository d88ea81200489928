/** The engine's events as `adreport report` shows them: lines on stderr, a spinner, the --summary object. */

import { type LineTag, tagLine } from "../../core/log-codes";
import { printable } from "../../core/printable";
import type { EngineEvents } from "../../engine/events";
import type { Context } from "../context";
import type { RunObserver } from "../telemetry";
import { progressView } from "./progress";
import { type SummaryChoice, writeSummaryObject } from "./summary-out";

/**
 * `announce`: say what an `-o FILE` export wrote, for a person at a terminal (not with -q, not into a log;
 * never for an account's part of a run over several, whose table says it).
 */
export function stderrEvents(ctx: Context, summary: SummaryChoice, announce = false): EngineEvents {
  const line = (text: string, tag?: LineTag) => {
    if (tag) tagLine(ctx.io.err, tag);
    ctx.io.err.write(`adreport: ${text}\n`);
  };
  const count = (rows: number) => `${rows.toLocaleString("en-US")} ${rows === 1 ? "row" : "rows"}`;
  const events: EngineEvents = {
    ...(announce &&
      ctx.io.errIsTTY && {
        wrote: (path: string, rows: number) =>
          line(`wrote ${count(rows)} to ${printable(path)}`, { code: "wrote", fields: { path, rows } }),
      }),
    warning: (text) => line(`warning: ${text}`, { code: "warning" }),
    note: (text) => line(text, { code: "note" }),
    dayChanged: (day, what) => line(`${day}: ${what}`, { code: "day.changed", fields: { day, what } }),
    progress: (options) => progressView(ctx.io, options),
    summary: (object) => writeSummaryObject(ctx, summary, object),
  };
  return ctx.observer ? observed(events, ctx.observer) : events;
}

/** The same events, told to the run's telemetry as well (commands/telemetry.ts). */
function observed(events: EngineEvents, observer: RunObserver): EngineEvents {
  return {
    ...events,
    dayChanged(day, what) {
      observer.dayChanged(day);
      events.dayChanged(day, what);
    },
    dayInPlace(day, rows) {
      observer.dayInPlace(day, rows);
      events.dayInPlace?.(day, rows);
    },
    restarted() {
      observer.restarted();
      events.restarted?.();
    },
    async progress(options) {
      const view = await events.progress(options);
      return {
        onEvent(event) {
          observer.apiEvent(event);
          view.onEvent(event);
        },
        onProgress: (progress) => view.onProgress(progress),
        onBytes: (count) => observer.bytes(count),
        stop: () => view.stop(),
      };
    },
    summary(object) {
      observer.summary(object as Readonly<Record<string, unknown>>);
      return events.summary(object);
    },
  };
}
