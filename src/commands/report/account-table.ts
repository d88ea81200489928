/** The table of a run over several accounts, for stderr: one line per profile, then what went wrong. */
import Table from "cli-table3";
import { printable } from "../../core/printable";
import type { AccountResult } from "../shared/account-outcome";

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function outcomeText(result: AccountResult): string {
  if (result.outcome === "IP not whitelisted" && result.seenAddress !== undefined) {
    return `IP not whitelisted (the service saw ${result.seenAddress})`;
  }
  return result.outcome;
}

/** The table and, below it, one `adreport: <profile>: <error>` line per failed account. */
export function accountTable(results: readonly AccountResult[]): string {
  const table = new Table({
    head: ["profile", "outcome", "rows", "time"],
    colAligns: ["left", "left", "right", "right"],
    style: { head: [], border: [], compact: true },
  });
  for (const result of results) {
    table.push([
      result.profile,
      printable(outcomeText(result)),
      result.rows.toLocaleString("en-US"),
      seconds(result.ms),
    ]);
  }
  const failed = results.filter((r) => r.error !== undefined);
  const lines = failed.map((r) => `adreport: ${r.profile}: ${printable(r.error ?? "")}\n`);
  const hints = [...new Set(failed.flatMap((r) => (r.hint === undefined ? [] : [r.hint])))];
  return `${table.toString()}\n${lines.join("")}${hints.map((hint) => `hint: ${printable(hint)}\n`).join("")}`;
}
