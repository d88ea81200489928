/**
 * What a run tells its telemetry (--metrics-file, OpenTelemetry; src/cli/telemetry/): the engine's events,
 * seen where the command renders them (shared/stderr-events.ts). Absent unless asked for, so a run without
 * it loads nothing of it.
 */
import type { ApiEvent } from "../api";

export type { ApiEvent };

export interface RunObserver {
  /** The observer of one account's part of a run over several profiles. */
  account(profile: string): RunObserver;
  apiEvent(event: ApiEvent): void;
  /** The body of an answer, read. */
  bytes(count: number): void;
  dayChanged(day: string): void;
  /** A day of a run of whole days is in place with `rows` rows. */
  dayInPlace(day: string, rows: number): void;
  /** The fetch started again after the service said its data changed. */
  restarted(): void;
  /** The run's (or the account's) --summary object: how it ended. */
  summary(summary: Readonly<Record<string, unknown>>): void;
}
