/**
 * The pace of a run's requests: one Pacer per API client (every page in flight, every window, both periods
 * of --compare), its schedule kept in a ledger file per service and key, so that accounts of one key in this
 * run and other processes of it on this host (two cron jobs) keep one pace between them.
 */
import { Pacer } from "../../api";
import { parseRate } from "../../core/rate";
import { FilePaceLedger, paceLedgerPath } from "../../state/pace-ledger";
import type { ReportPlan } from "../plan/plan";

export function pacerFor(plan: Pick<ReportPlan, "settings" | "apiKey" | "paceFolder">): Pacer {
  const { settings } = plan;
  const rate = settings.rate.value;
  return new Pacer({
    cap: rate === undefined ? undefined : parseRate(rate),
    ledger: new FilePaceLedger(paceLedgerPath(plan.paceFolder, settings["base-url"].value, plan.apiKey)),
  });
}
