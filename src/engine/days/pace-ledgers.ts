/**
 * Where a run's key keeps its pace with its other runs: the pace file of the host (state/pace-ledger.ts),
 * or, for a target whose kind shares it between the hosts that write it (PostgreSQL: `paceLedger`), there,
 * the file being what a run paces by when the database cannot be used for it.
 */
import type { PaceLedger } from "../../core/pace-slot";
import { FilePaceLedger, paceFingerprint, paceLedgerPath } from "../../state/pace-ledger";
import { kindOf } from "../../targets/registry";
import type { ReportPlan } from "../plan/plan";

export function paceLedgerFor(
  plan: Pick<ReportPlan, "settings" | "apiKey" | "paceFolder" | "output">,
  note?: (text: string) => void,
): PaceLedger {
  const { settings, apiKey } = plan;
  const baseUrl = settings["base-url"].value;
  const file = new FilePaceLedger(paceLedgerPath(plan.paceFolder, baseUrl, apiKey));
  const output = plan.output;
  if (output.kind !== "target") return file;
  const kind = kindOf(output.target);
  return kind.paceLedger?.(output, paceFingerprint(baseUrl, apiKey), settings.timeout.value * 1000, file, note) ?? file;
}
