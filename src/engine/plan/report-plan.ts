/**
 * A report's words, with the settings in effect, made into the plan the engine runs (plan.ts): an export
 * into stdout or a file (export-plan.ts), or a run of whole days (days-plan.ts), as --output says.
 */
import type { ResolvedSettings } from "../../config/resolve";
import { UsageError } from "../../core/errors";
import type { PlanPlace } from "./common";
import { planDays } from "./days-plan";
import { planExport } from "./export-plan";
import { parseOutputSpec } from "./output-spec";
import { freezePlan, type ReportPlan } from "./plan";
import type { ReportWords } from "./words";

/** Only the report's words, from flags that hold more (the key, the summary, the accounts). */
export function reportWordsOf(flags: ReportWords): ReportWords {
  const { from, to, metrics, dimensions, granularity, campaign, ad, split } = flags;
  const { compare, top, sort, dateFormat, fill, fields, format, spreadsheet, bom, delimiter } = flags;
  const { output, table, incremental, tz, lookback, start, stateFile, record, quiet, verbose, dryRun } = flags;
  return {
    ...{ from, to, metrics, dimensions, granularity, campaign, ad, split },
    ...{ compare, top, sort, dateFormat, fill, fields, format, spreadsheet, bom, delimiter },
    ...{ output, table, incremental, tz, lookback, start, stateFile, record, quiet, verbose, dryRun },
  };
}

export interface PlanChoices {
  /** Rows keep the counters of their ratios, for an output that sums them later (for-account.ts). */
  keepCounters?: boolean;
  /** With {profile} in --output: this account's name goes there. */
  profile?: string;
}

/**
 * What the run refuses before any request is refused here; each warning is said through `place.warn` as
 * planning finds it, and kept in the plan. No I/O but through `place.look`.
 */
export async function planWords(
  place: PlanPlace,
  words: ReportWords,
  settings: ResolvedSettings,
  choices: PlanChoices = {},
): Promise<Readonly<ReportPlan>> {
  if (words.incremental !== true) {
    for (const [flag, value] of [
      ["--lookback", words.lookback],
      ["--start", words.start],
      ["--state-file", words.stateFile],
    ] as const) {
      if (value !== undefined) throw new UsageError(`${flag} applies to --incremental runs only`);
    }
  }
  const named = choices.profile === undefined ? words.output : words.output?.replaceAll("{profile}", choices.profile);
  const output = parseOutputSpec({ ...words, output: named }, place.cwd);
  if (output.kind !== "stdout" && output.kind !== "file") {
    return freezePlan(await planDays(place, words, settings, output));
  }
  return freezePlan(await planExport(place, words, settings, output, choices.keepCounters));
}
