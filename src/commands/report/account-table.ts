/**
 * The table of a run over several accounts, for stderr: one line per profile, then what went wrong. Drawn
 * here rather than with cli-table3, which a run over accounts would load only for this table of short
 * ASCII cells (profile names, our outcome words, an IP address).
 */
import type { Writable } from "node:stream";
import { tagLine, writesJsonLogs } from "../../core/log-codes";
import { printable } from "../../core/printable";
import type { AccountResult } from "../shared/account-outcome";

/** 12,345: by hand, as toLocaleString would load the ICU number formatting data (several MB) for it. */
function thousands(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function outcomeText(result: AccountResult): string {
  if (result.taken !== undefined) {
    const { as, by } = result.taken;
    // `4242 on "build-2"` is adreport's; anything else (another program's session) is said as it is.
    const who = /^\d+ on /.test(by) ? `pid ${by.replace(" on ", " on host ")}` : by;
    return `${as === "held" ? "taken" : "done"} by ${who}`;
  }
  if (result.outcome === "IP not whitelisted" && result.seenAddress !== undefined) {
    return `IP not whitelisted (the service saw ${result.seenAddress})`;
  }
  return result.outcome;
}

/** The table and, below it, one `adreport: <profile>: <error>` line per failed account. */
export function accountTable(results: readonly AccountResult[]): string {
  const rows = results.map((result) => [
    result.profile,
    printable(outcomeText(result)),
    thousands(result.rows),
    seconds(result.ms),
  ]);
  const table = drawTable(["profile", "outcome", "rows", "time"], rows, [false, false, true, true]);
  const failed = results.filter((r) => r.error !== undefined);
  const lines = failed.map((r) => `adreport: ${r.profile}: ${printable(r.error ?? "")}\n`);
  const hints = [...new Set(failed.flatMap((r) => (r.hint === undefined ? [] : [r.hint])))];
  return `${table}${lines.join("")}${hints.map((hint) => `hint: ${printable(hint)}\n`).join("")}`;
}

/** The table on `err`; in JSON logs, a record per account instead, then the failures and hints. */
export function writeAccountTable(err: Writable, results: readonly AccountResult[]): void {
  if (!writesJsonLogs(err)) {
    err.write(accountTable(results));
    return;
  }
  for (const result of results) {
    const { profile, outcome, rows, ms } = result;
    tagLine(err, { code: "account.result", fields: { profile, outcome, rows, ms: Math.round(ms) } });
    err.write(`adreport: ${profile}: ${printable(outcomeText(result))}\n`);
  }
  for (const result of results.filter((r) => r.error !== undefined)) {
    tagLine(err, { code: "account.failed", fields: { profile: result.profile } });
    err.write(`adreport: ${result.profile}: ${printable(result.error ?? "")}\n`);
    if (result.hint !== undefined) {
      tagLine(err, { code: "hint", fields: { profile: result.profile } });
      err.write(`hint: ${printable(result.hint)}\n`);
    }
  }
}

/** A box-drawn table in cli-table3's compact style, one line per row; `right` aligns a column right. */
function drawTable(head: readonly string[], rows: readonly string[][], right: readonly boolean[]): string {
  const widths = head.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  const rule = (left: string, middle: string, end: string) =>
    `${left}${widths.map((width) => "─".repeat(width + 2)).join(middle)}${end}\n`;
  const line = (cells: readonly string[], align: readonly boolean[]) =>
    `│${cells.map((cell, column) => ` ${align[column] ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)} `).join("│")}│\n`;
  return [
    rule("┌", "┬", "┐"),
    line(head, []),
    rule("├", "┼", "┤"),
    ...rows.map((row) => line(row, right)),
    rule("└", "┴", "┘"),
  ].join("");
}
