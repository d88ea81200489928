/**
 * A job's recorded runs, newest first: its last run and those before it (state/store.ts LastRun), read
 * defensively: a record of an earlier adreport has only `at` and `outcome`, and one edited by hand is used
 * for what it still says.
 */
import { dayOfText } from "../../core/calendar";
import { type LastRun, RECENT_RUNS } from "../../state/store";

const OUTCOMES: readonly string[] = ["ok", "failed", "nothing to do"];

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * An instant as adreport writes it (ISO 8601), kept as written when in UTC, else said in UTC. Date.parse alone
 * takes much else (`Nov 10 2026 (any text, line breaks too)`), which would reach a line of `status` raw.
 */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

function instant(value: unknown): string | undefined {
  const t = text(value);
  if (t === undefined || !ISO_INSTANT.test(t)) return undefined;
  const ms = Date.parse(t);
  if (Number.isNaN(ms)) return undefined;
  return t.endsWith("Z") ? t : new Date(ms).toISOString();
}

function dayOf(value: unknown): string | undefined {
  const t = text(value);
  return t !== undefined && dayOfText(t) !== undefined ? t : undefined;
}

function texts(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** One run as recorded, or undefined when it is not one (no time, no known outcome). */
function runOf(value: unknown): LastRun | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const at = instant(v.at);
  if (at === undefined || !OUTCOMES.includes(v.outcome as string)) return undefined;
  const optional = {
    message: text(v.message),
    from: dayOf(v.from),
    to: dayOf(v.to),
    run: text(v.run),
    started: instant(v.started),
    rows: count(v.rows),
    requests: count(v.requests),
    daysWritten: count(v.daysWritten),
    daysChanged: count(v.daysChanged),
    daysUnchanged: count(v.daysUnchanged),
    restated: texts(v.restated).filter((d) => dayOfText(d) !== undefined),
    schemaChanges: texts(v.schemaChanges),
    waits: count(v.waits),
    waitedMs: count(v.waitedMs),
    lookbackDays: count(v.lookbackDays),
    repair: v.repair === true ? true : undefined,
  };
  const kept = Object.fromEntries(Object.entries(optional).filter(([, item]) => item !== undefined));
  return { at, outcome: v.outcome as LastRun["outcome"], ...kept };
}

/** The runs the record holds, newest first (the last run first). */
export function recentRuns(record: LastRun | undefined): LastRun[] {
  const last = runOf(record);
  if (last === undefined) return [];
  // A record edited by hand may hold any number: the runs a run keeps are read, no more.
  const earlier = Array.isArray(record?.earlier) ? record.earlier.slice(0, RECENT_RUNS - 1) : [];
  return [last, ...earlier.map(runOf).filter((run): run is LastRun => run !== undefined)];
}
