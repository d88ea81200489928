/** `adreport serve key list`: the keys as a table, JSON or NDJSON, each shown masked, never whole. */
import { formatDateTime } from "../../core/calendar";
import { printable } from "../../core/printable";
import type { Context } from "../context";
import { recordFormat, recordsText } from "../shared/records";
import { type DbOptions, nowSeconds, withStore } from "./operator";

export interface KeyListOptions extends DbOptions {
  format?: "table" | "json" | "ndjson" | undefined;
  json?: true | undefined;
}

export async function runKeyList(ctx: Context, options: KeyListOptions): Promise<void> {
  const format = recordFormat(ctx, options);
  const keys = await withStore(ctx, options.db, false, (store) => store.listKeys(nowSeconds(ctx)));
  if (format !== "human") {
    // snake_case as the API writes its fields; times as ISO 8601 UTC, as the table shows them.
    const records = keys.map((k) => ({
      id: k.id,
      advertiser: k.advertiser,
      key: k.hint,
      status: k.status,
      replaced_by: k.replacedBy ?? null,
      created_at: formatDateTime(k.createdAt),
      expires_at: k.expiresAt === undefined ? null : formatDateTime(k.expiresAt),
      ips: k.ips,
    }));
    ctx.io.out.write(recordsText(format, records));
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
