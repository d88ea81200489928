/**
 * --metrics-file PATH: the run's figures in Prometheus's text exposition format, for node_exporter's
 * textfile collector (which reads `*.prom` in its folder). Written atomically (a hidden `.tmp` file beside
 * it, renamed over it), readable by the collector's user. Its folder must exist (the collector's), as `-o`'s. One series per account, labelled `job` (an
 * incremental job's id) and `profile` (a run over several profiles); `{job}` and `{profile}` in PATH make
 * one file each instead. What a run did not learn (the newest day of a failed run, the last success) is
 * kept from the file the run replaces, so `time() - adreport_newest_day_timestamp_seconds` keeps rising
 * while runs fail.
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { notAFile } from "../../io/output-target";
import { readOptionalFile } from "../../io/private-file";
import { replaceFileWith } from "../../io/replace-file";
import type { AccountFigures } from "./figures";

interface Metric {
  name: string;
  help: string;
  value(figures: AccountFigures, run: RunEnd): number | undefined;
}

export interface RunEnd {
  /** When the run ended (epoch ms). */
  readonly endedMs: number;
  /** The process's exit code: a run that did not end well is not a success, whatever an account said. */
  readonly exitCode: number;
}

const succeeded = (figures: AccountFigures, run: RunEnd) =>
  (figures.outcome === "ok" || figures.outcome === "nothing to do") &&
  (figures.profile !== undefined || run.exitCode === 0);

export const METRICS: readonly Metric[] = [
  {
    name: "adreport_last_run_timestamp_seconds",
    help: "When the last run ended (Unix time).",
    value: (f, run) => (f.endedMs ?? run.endedMs) / 1000,
  },
  {
    name: "adreport_last_run_success",
    help: "Whether the last run ended well (1) or failed (0).",
    value: (f, run) => (succeeded(f, run) ? 1 : 0),
  },
  {
    name: "adreport_last_run_duration_seconds",
    help: "How long the last run took.",
    value: (f, run) => ((f.endedMs ?? run.endedMs) - f.startedMs) / 1000,
  },
  {
    name: "adreport_last_success_timestamp_seconds",
    help: "When a run last ended well (Unix time).",
    value: (f, run) => (succeeded(f, run) ? (f.endedMs ?? run.endedMs) / 1000 : undefined),
  },
  {
    name: "adreport_newest_day_timestamp_seconds",
    help: "The start (00:00 UTC) of the newest day in the exported data: alert on time() minus this.",
    value: (f) => (f.newestDay === undefined ? undefined : Date.parse(`${f.newestDay}T00:00:00Z`) / 1000),
  },
  { name: "adreport_last_run_rows", help: "Rows the last run exported.", value: (f) => f.rows },
  {
    name: "adreport_last_run_requests",
    help: "Requests the last run sent, retries included.",
    value: (f) => f.requests,
  },
  { name: "adreport_last_run_retries", help: "Requests of the last run that were retries.", value: (f) => f.retries },
  {
    name: "adreport_last_run_throttled_requests",
    help: "Answers 429 (too many requests) the last run got.",
    value: (f) => f.throttled,
  },
  {
    name: "adreport_last_run_throttled_seconds",
    help: "Time the last run waited for the service's rate limits.",
    value: (f) => f.throttledMs / 1000,
  },
  { name: "adreport_last_run_bytes", help: "Bytes of the answers the last run read.", value: (f) => f.bytes },
  {
    name: "adreport_last_run_dates_written",
    help: "Whole days the last run wrote (day files, a database, an incremental job).",
    value: (f) => f.daysWritten,
  },
  {
    name: "adreport_last_run_dates_restated",
    help: "Days the last run found changed since they were last written.",
    value: (f) => f.daysRestated,
  },
];

/** What the figures carry over from the file they replace when this run has none. */
const KEPT = new Set(["adreport_newest_day_timestamp_seconds", "adreport_last_success_timestamp_seconds"]);

/** Writes the file (or files: `{job}`, `{profile}` in `pattern`) for these accounts. */
export async function writeMetricsFiles(
  pattern: string,
  cwd: string,
  accounts: readonly AccountFigures[],
  run: RunEnd,
): Promise<void> {
  const files = new Map<string, AccountFigures[]>();
  for (const figures of accounts) {
    const path = resolve(cwd, pathFor(pattern, figures));
    files.set(path, [...(files.get(path) ?? []), figures]);
  }
  for (const [path, group] of files) {
    // A named pipe would hold the run forever at the read below, and a device (as root) would be renamed over.
    const found = await stat(path).catch(() => undefined);
    const other = found === undefined ? undefined : notAFile(found);
    if (other !== undefined) throw new Error(`it is ${other}, not a file to replace`);
    const previous = parseSeries((await readOptionalFile(path).catch(() => undefined)) ?? "");
    // Read by node_exporter, which runs as another user.
    await replaceFileWith(path, metricsText(group, run, previous), 0o644);
  }
}

function pathFor(pattern: string, figures: AccountFigures): string {
  const safe = (word: string) => word.replace(/[^A-Za-z0-9._-]/g, "_");
  return pattern
    .replaceAll("{job}", safe(figures.job ?? "export"))
    .replaceAll("{profile}", safe(figures.profile ?? "default"));
}

/** The exposition text of these accounts' figures; `previous`: series of the file it replaces. */
export function metricsText(
  accounts: readonly AccountFigures[],
  run: RunEnd,
  previous: ReadonlyMap<string, number> = new Map(),
): string {
  const lines: string[] = [];
  for (const metric of METRICS) {
    const samples: string[] = [];
    for (const figures of accounts) {
      const series = `${metric.name}${labelsOf(figures, previous)}`;
      const value = metric.value(figures, run) ?? (KEPT.has(metric.name) ? previous.get(series) : undefined);
      if (value !== undefined && Number.isFinite(value)) samples.push(`${series} ${value}`);
    }
    if (samples.length === 0) continue;
    lines.push(`# HELP ${metric.name} ${metric.help}`, `# TYPE ${metric.name} gauge`, ...samples);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `{job="...",profile="..."}`. A run that failed before it knew its job (a key refused at the first
 * request) takes the job of the file's series for the same profile: its failure must not drop the series
 * an alert watches.
 */
function labelsOf(figures: AccountFigures, previous: ReadonlyMap<string, number>): string {
  const profile = figures.profile === undefined ? undefined : `profile="${labelValue(figures.profile)}"`;
  const job = figures.job === undefined ? previousJob(previous, profile) : `job="${labelValue(figures.job)}"`;
  const labels = [...(job === undefined ? [] : [job]), ...(profile === undefined ? [] : [profile])];
  return labels.length === 0 ? "" : `{${labels.join(",")}}`;
}

/** The `job="..."` label of the previous file's series of this profile (or of no profile), when one. */
function previousJob(previous: ReadonlyMap<string, number>, profile: string | undefined): string | undefined {
  const jobs = new Set<string>();
  for (const series of previous.keys()) {
    const match =
      /^adreport_last_run_timestamp_seconds\{(job="(?:[^"\\]|\\.)*")(?:,(profile="(?:[^"\\]|\\.)*"))?\}$/.exec(series);
    if (match?.[1] !== undefined && match[2] === profile) jobs.add(match[1]);
  }
  return jobs.size === 1 ? [...jobs][0] : undefined;
}

/** A label's value as the format escapes it: backslash, double quote and line feed. */
function labelValue(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** `name{labels} value` lines of an exposition file, by series. */
export function parseSeries(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    if (at <= 0) continue;
    const value = Number(line.slice(at + 1));
    if (Number.isFinite(value)) series.set(line.slice(0, at), value);
  }
  return series;
}
