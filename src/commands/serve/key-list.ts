/** `adreport serve key list`: the keys as a table or JSON lines, each shown masked, never whole. */
import { formatDateTime } from "../../contract";
import { printable } from "../../core/printable";
import type { Context } from "../context";
import { type DbOptions, nowSeconds, withStore } from "./operator";

export interface KeyListOptions extends DbOptions {
  json?: true | undefined;
}

export async function runKeyList(ctx: Context, options: KeyListOptions): Promise<void> {
  const keys = await withStore(ctx, options.db, false, (store) => store.listKeys(nowSeconds(ctx)));
  if (options.json) {
    for (const k of keys) ctx.io.out.write(`${JSON.stringify(k)}\n`);
    return;
  }
  const { default: Table } = await import("cli-table3");
  const table = new Table({
    head: ["id", "advertiser", "key", "status", "created", "expires", "whitelist"],
    style: { head: [], border: [] },
  });
  for (const k of keys) {
    // Advertiser names come from load files; like the report's table, this one shows them, never obeys them.
    table.push([
      k.id,
      printable(k.advertiser),
      k.hint,
      k.replacedBy === undefined ? k.status : `${k.status} (→ #${k.replacedBy})`,
      formatDateTime(k.createdAt),
      k.expiresAt === undefined ? "never" : formatDateTime(k.expiresAt),
      k.ips.join(" ") || "(none)",
    ]);
  }
  ctx.io.out.write(`${table.toString()}\n`);
}
