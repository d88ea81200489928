/**
 * What the export engine needs of its caller: the streams it writes data to (stdout), the environment, the
 * folder relative paths are in, the clock, the HTTP dispatcher and the signals. A command's Context is one.
 * The engine never writes to stderr: what a person should read goes through EngineEvents (events.ts).
 */
import type { HttpDispatcher } from "../api";
import type { IOStreams } from "../io/iostreams";

export interface EngineContext {
  readonly io: IOStreams;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly version: string;
  /** The words of the command line being run, after `adreport` (a recording keeps them). */
  readonly argv?: readonly string[] | undefined;
  now(): Date;
  readonly user?: { uid: number; gid: number } | undefined;
  sqliteAddon(): object | undefined;
  readonly dispatcher?: HttpDispatcher | undefined;
  onSignal(handler: (signal: NodeJS.Signals) => void): () => void;
  /**
   * A run over several accounts: the round it belongs to (engine/days/job-taken.ts). Its accounts whose
   * job another live run holds, or a run of this round ended, are taken, not exported again.
   */
  readonly round?: { readonly since: Date } | undefined;
}
