/**
 * The pace of a run's requests: one Pacer per API client (every page in flight, every window, both periods
 * of --compare), its schedule kept in a ledger per service and key, so that accounts of one key in this
 * run and other processes of it on this host (two cron jobs), or on every host that writes one PostgreSQL
 * database (engine/days/pace-ledgers.ts), keep one pace between them.
 */
import { Pacer } from "../../api";
import { parseRate } from "../../core/rate";
import { paceLedgerFor } from "../days/pace-ledgers";
import type { ReportPlan } from "../plan/plan";

export function pacerFor(
  plan: Pick<ReportPlan, "settings" | "apiKey" | "paceFolder" | "output">,
  note?: (text: string) => void,
): Pacer {
  const { settings } = plan;
  const rate = settings.rate.value;
  return new Pacer({
    cap: rate === undefined ? undefined : parseRate(rate),
    ledger: paceLedgerFor(plan, note),
  });
}
