/**
 * EngineEvents that keep everything the engine tells, in order, for a test to read: the warnings, notes,
 * changed days, the file written, the --summary object, and the progress display's API events and progress.
 * `story()` is the run in short lines (`sent p1`, `response 503 p2`, `retry 1/4`, `note: ...`).
 */
import type { ApiEvent, Progress } from "../../src/api";
import type { EngineEvents } from "../../src/engine/events";

export type Recorded =
  | { kind: "warning" | "note"; text: string }
  | { kind: "dayChanged"; day: string; what: string }
  | { kind: "wrote"; path: string; rows: number }
  | { kind: "progress"; quiet: boolean; verbose: boolean }
  | { kind: "stop" }
  | { kind: "summary"; summary: Record<string, unknown> }
  | { kind: "api"; event: ApiEvent };

/** `p2` for a request of page 2: the page a request asked for, from its URL. */
function pageOf(url: string): string {
  return `p${new URL(url, "http://x").searchParams.get("page")}`;
}

function line(entry: Recorded): string {
  switch (entry.kind) {
    case "warning":
    case "note":
      return `${entry.kind}: ${entry.text}`;
    case "dayChanged":
      return `${entry.day}: ${entry.what}`;
    case "wrote":
      return `wrote ${entry.rows} to ${entry.path}`;
    case "progress":
      return "progress";
    case "stop":
      return "stop";
    case "summary":
      return `summary ${entry.summary.outcome}`;
    case "api": {
      const { event } = entry;
      if (event.kind === "sent") return `sent ${pageOf(event.url)}`;
      if (event.kind === "response") return `response ${event.status} ${pageOf(event.url)}`;
      if (event.kind === "failure") return `failure ${pageOf(event.url)}`;
      if (event.kind === "retry") return `retry ${event.retry}/${event.of}`;
      return `wait ${event.source}`;
    }
  }
}

export function recordingEvents() {
  const log: Recorded[] = [];
  const progress: Progress[] = [];
  const events: EngineEvents = {
    warning: (text) => log.push({ kind: "warning", text }),
    note: (text) => log.push({ kind: "note", text }),
    dayChanged: (day, what) => log.push({ kind: "dayChanged", day, what }),
    wrote: (path, rows) => log.push({ kind: "wrote", path, rows }),
    async progress(options) {
      log.push({ kind: "progress", ...options });
      return {
        onEvent: (event) => log.push({ kind: "api", event }),
        onProgress: (p) => progress.push(p),
        stop: () => log.push({ kind: "stop" }),
      };
    },
    async summary(summary) {
      log.push({ kind: "summary", summary: summary as Record<string, unknown> });
    },
  };
  return {
    events,
    log,
    progress,
    /** The run in short lines; `stop` (the display may be stopped more than once) left out. */
    story: (): string[] => log.filter((entry) => entry.kind !== "stop").map(line),
    /** What the engine said to a person: warnings, notes, changed days, the file written. */
    said: (): string[] => log.filter((entry) => !["api", "progress", "stop", "summary"].includes(entry.kind)).map(line),
    /** The API events of one kind. */
    api: <K extends ApiEvent["kind"]>(kind: K) =>
      log.flatMap((entry) =>
        entry.kind === "api" && entry.event.kind === kind ? [entry.event as Extract<ApiEvent, { kind: K }>] : [],
      ),
    /** The one --summary object of the run. */
    summary(): Record<string, unknown> {
      const all = log.flatMap((entry) => (entry.kind === "summary" ? [entry.summary] : []));
      if (all.length !== 1) throw new Error(`${all.length} summaries, not one`);
      return all[0] as Record<string, unknown>;
    },
  };
}
