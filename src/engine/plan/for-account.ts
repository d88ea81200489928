/**
 * One account's plan in a run over several profiles (`report --profiles a,b` / `--all-profiles`), derived
 * from the run's base: the run's words and clock, the account's own settings (its key, its zone: its {from}
 * and {to}), its own output ({profile} in the name, DIR/<profile> for --record) or the spool file its rows
 * wait in for the output every account shares. What the account's own settings refuse is refused here, for
 * that account alone.
 */
import { join } from "node:path";
import type { ResolvedSettings } from "../../config/resolve";
import type { FormatName } from "../../core/formats";
import { formatNamed } from "../../format/registry";
import type { PlanPlace } from "./common";
import { freezePlan, type ReportPlan } from "./plan";
import { planWords } from "./report-plan";
import type { ReportWords } from "./words";

/** What every account's plan of a run is made from, decided once for the run (commands/report/account-plan.ts). */
export interface BasePlan {
  /** The one reading of the clock every account's plan is made at. */
  readonly now: Date;
  /** The run's words, as each account's export reads them (--fields without `profile`, which the run adds). */
  readonly words: Readonly<ReportWords>;
  /** The run's warnings, said once for the run: an account's plan does not hold them again. */
  readonly warnings: readonly string[];
  /** The format of the one output the accounts' rows are merged into; undefined when each writes its own. */
  readonly merged: FormatName | undefined;
}

export interface Account {
  readonly profile: string;
  /** The account's settings: its profile's key, base URL, zone, page size... */
  readonly settings: ResolvedSettings;
  /** The JSON file its rows wait in for the shared output; undefined: it writes its own output. */
  readonly spoolFile?: string | undefined;
}

/** A merged output whose totals recompute ratios from the accounts' summed counters (table, pictures). */
function sums(merged: FormatName | undefined): boolean {
  const entry = merged === undefined ? undefined : formatNamed(merged);
  return entry?.totals === true || entry?.keepsCounters === true;
}

/** The account's words: quiet (the run's table says how it went), its own output and --record folder. */
function accountWords(base: BasePlan, account: Account): ReportWords {
  const { record } = base.words;
  const spooled =
    account.spoolFile === undefined
      ? {}
      : {
          output: account.spoolFile,
          format: "json" as const,
          bom: undefined,
          delimiter: undefined,
          spreadsheet: undefined,
        };
  return {
    ...base.words,
    quiet: true,
    record: record === undefined ? undefined : join(record, account.profile),
    ...spooled,
  };
}

/**
 * Warnings the account's planning finds are said through `place.warn` and kept in its plan, but for those
 * the base holds: the run said them once already.
 */
export async function planForAccount(
  base: BasePlan,
  account: Account,
  place: Omit<PlanPlace, "now">,
): Promise<Readonly<ReportPlan>> {
  const own = (text: string) => !base.warnings.includes(text);
  const warn = (text: string) => {
    if (own(text)) place.warn(text);
  };
  const keepCounters = account.spoolFile !== undefined && sums(base.merged);
  const plan = await planWords({ ...place, now: base.now, warn }, accountWords(base, account), account.settings, {
    keepCounters,
    profile: account.profile,
  });
  return freezePlan({ ...plan, warnings: plan.warnings.filter(own) });
}
