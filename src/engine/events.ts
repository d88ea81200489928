/**
 * How the engine tells a person what happens: the command renders these (stderr, a spinner); the engine
 * never writes to stderr itself. Texts come without the `adreport: ` prefix.
 */
import type { ApiEvent, Progress } from "../api";

/** A progress display: a spinner, a line per request (--verbose), or nothing. */
export interface ProgressSink {
  onEvent(event: ApiEvent): void;
  onProgress(progress: Progress): void;
  /** The body of an answer, read (`count` bytes): for the run's telemetry. */
  onBytes?(count: number): void;
  stop(): void;
}

export interface EngineEvents {
  /** Something the user may want to act on: `adreport: warning: <text>`. */
  warning(text: string): void;
  /** A fact about the run (a day that changed, a report without rows): `adreport: <text>`. */
  note(text: string): void;
  /** A day of a run of whole days that differs from what the last run wrote: `adreport: <day>: <what>`. */
  dayChanged(day: string, what: string): void;
  /**
   * An export into one file (`-o FILE`) is in place, holding `rows` rows: shown on a terminal as dlt does
   * (`wrote 1,234 rows to report.csv`), or not at all.
   */
  wrote?(path: string, rows: number): void;
  /** The display of this run's progress, opened when the requests start. */
  progress(options: { quiet: boolean; verbose: boolean }): Promise<ProgressSink>;
  /**
   * A day of a run of whole days is in place, holding `rows` rows (for the run's telemetry: the newest day
   * the data has, which a job that fetches its lookback again every day cannot show by its load time).
   */
  dayInPlace?(day: string, rows: number): void;
  /** The fetch starts again after the service said its data changed (once; for the run's telemetry). */
  restarted?(): void;
  /** How the run ended (--summary), once, done or failed; a failure to write it fails the run. */
  summary(summary: object): Promise<void>;
}
