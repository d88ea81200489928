/**
 * One export as a value: what the command decided from its flags, the resolved settings, one reading of the
 * clock and the zone, before any request. Frozen: the engine reads it and never changes it; a run over
 * several accounts derives one per account from its base (for-account.ts), `verify --repair` one from the
 * job's state (for-job.ts).
 */
import type { ResolvedSettings } from "../../config/resolve";
import type { FormatOptions } from "../../format/formatter";
import type { TransformPlan } from "../../transform/pipeline";
import type { ComparedPeriod } from "./compare";
import type { CompareMode } from "./compare-modes";
import type { FolderProblem } from "./output-folder";
import type { OutputFormat } from "./output-format";
import type { DayTargetSpec, OutputSpec } from "./output-spec";
import type { RequestPlan, RequestWords } from "./request";

/** How the rows are written: the format and its options (html and chart: the query in words too). */
export interface FormatPlan {
  readonly format: OutputFormat;
  readonly options: Readonly<FormatOptions>;
}

export interface IncrementalPlan {
  /** The fixed lookback; 0 with `auto` (the new days: the days fetched again are found by the totals). */
  readonly lookbackDays: number;
  /** --lookback auto: the days fetched again are those whose totals moved (engine/days/auto-run.ts). */
  readonly auto?: boolean;
  readonly start: string | undefined;
  /** The state file given (--state-file, resolved), else the folder the job's state goes in. */
  readonly stateFile: string | undefined;
  readonly stateFolder: string;
}

export interface CommonPlan {
  /** The one reading of the clock the plan was made at. */
  readonly now: Date;
  /** The settings in effect (the profile's, for one account of several). */
  readonly settings: ResolvedSettings;
  readonly apiKey: string;
  /** The request's words as given, for a range found later (an incremental run's, from its state). */
  readonly words: Readonly<RequestWords>;
  readonly request: RequestPlan;
  readonly paging: { readonly pageSize: number; readonly concurrency: number };
  readonly maxTime: number | undefined;
  /** The folder of the pace ledgers this host's runs share, one per service and key (state/pace). */
  readonly paceFolder: string;
  readonly quiet: boolean;
  readonly verbose: boolean;
  /**
   * What planning said on stderr about this plan, each once (after `adreport: warning: `). A plan derived
   * from another (an account's from its run's) holds only those it found itself.
   */
  readonly warnings: readonly string[];
  /**
   * --dry-run only: the output's folder is missing (or not a folder), which a run refuses before any
   * request; the dry run shows its plan, then refuses as the run does. A run's plan never holds one.
   */
  readonly folder?: FolderProblem | undefined;
}

/** An export into stdout or one file (a device, a named pipe). */
export interface ExportPlan extends CommonPlan {
  readonly kind: "export";
  readonly output: Extract<OutputSpec, { kind: "stdout" | "file" }>;
  /** The file with {from} and {to} in place; undefined for stdout. */
  readonly path: string | undefined;
  readonly write: FormatPlan;
  readonly shape: TransformPlan;
  readonly compare: { readonly mode: CompareMode; readonly period: ComparedPeriod } | undefined;
  /** --record DIR: every request and answer kept there. */
  readonly record: string | undefined;
}

/** An export of whole days: {date} files or a database table, --incremental or not. */
export interface DayPlan extends CommonPlan {
  readonly kind: "days";
  readonly output: DayTargetSpec;
  /** {date} files only: the format of each day's file. */
  readonly write: FormatPlan | undefined;
  readonly granularity: string;
  readonly incremental: IncrementalPlan | undefined;
  /** The folder of the jobs' states, where the job that owns this output is found (engine/days/job-state.ts). */
  readonly stateFolder: string;
}

export type ReportPlan = ExportPlan | DayPlan;

/** Freezes a plan and the objects it holds (not the settings, the zone or the format entry, shared values). */
export function freezePlan<T extends ReportPlan>(plan: T): Readonly<T> {
  Object.freeze(plan.paging);
  Object.freeze(plan.words);
  Object.freeze(plan.warnings);
  if (plan.kind === "export") Object.freeze(plan.shape);
  return Object.freeze(plan);
}
