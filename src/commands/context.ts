/** What every command receives: its streams, its environment and a clock, so tests can replace each. */
import type { HttpDispatcher } from "../api";
import type { IOStreams } from "../io/iostreams";
import type { RunObserver } from "./telemetry";

export interface Context {
  readonly io: IOStreams;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The folder a relative path given to a command is in (-o, serve demo --ndjson, a relative config
   * folder from the environment), so a run in-process writes where a process started there would.
   */
  readonly cwd: string;
  readonly version: string;
  /** The words of the command line being run, after `adreport`: set by run() (main.ts); a recording keeps them. */
  readonly argv?: readonly string[] | undefined;
  now(): Date;
  /**
   * The user running adreport (POSIX ids), whom the config folder and file must belong to; undefined
   * where files have no POSIX owner (Windows).
   */
  readonly user?: { uid: number; gid: number } | undefined;
  /**
   * The better-sqlite3 addon when this program carries its own (the single-file binary); undefined to
   * load it from node_modules.
   */
  sqliteAddon(): object | undefined;
  /** Where HTTP requests go; undefined for the real network (tests pass an undici MockAgent). */
  readonly dispatcher?: HttpDispatcher | undefined;
  /** Called for SIGINT/SIGTERM handling by long-running commands; returns an unsubscribe function. */
  onSignal(handler: (signal: NodeJS.Signals) => void): () => void;
  /** What the run tells --metrics-file and OpenTelemetry, when either is asked for. */
  readonly observer?: RunObserver | undefined;
  /** A run over several accounts: the round it belongs to (see the engine's context). */
  readonly round?: { readonly since: Date } | undefined;
}
