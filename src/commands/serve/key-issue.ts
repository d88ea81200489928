/** `adreport serve key issue`: a new key for an advertiser, printed once on stdout. */
import { parseInstant } from "../../contract";
import { formatDateTime, SECONDS_PER_DAY } from "../../core/calendar";
import { UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import type { Context } from "../context";
import { type DbOptions, nowSeconds, withStore } from "./operator";

export interface KeyIssueOptions extends DbOptions {
  advertiser: string;
  ip?: string[] | undefined;
  expires?: string | undefined;
  expiresIn?: number | undefined;
}

/** The expiry the flags ask for, in epoch seconds; undefined: the key never expires. */
function expiryOf(options: KeyIssueOptions, now: number): number | undefined {
  if (options.expires !== undefined && options.expiresIn !== undefined) {
    throw new UsageError("give --expires or --expires-in, not both");
  }
  if (options.expires !== undefined) {
    const parsed = parseInstant(options.expires, "to");
    if (!parsed)
      throw new UsageError(`--expires: ${JSON.stringify(options.expires)} is not an ISO 8601 date-time or date`);
    return parsed.sec;
  }
  return options.expiresIn === undefined ? undefined : now + options.expiresIn * SECONDS_PER_DAY;
}

export async function runKeyIssue(ctx: Context, options: KeyIssueOptions): Promise<void> {
  const now = nowSeconds(ctx);
  const expiresAt = expiryOf(options, now);
  const ips = options.ip ?? [];
  const issued = await withStore(ctx, options.db, false, (store) =>
    store.issueKey({ advertiser: options.advertiser, ips, expiresAt, now }),
  );
  ctx.io.out.write(`${issued.key}\n`);
  ctx.io.err.write(
    `adreport serve: key #${issued.id} for ${printable(JSON.stringify(issued.advertiser))}, whitelist ${issued.ips.join(", ") || "(empty: no address may use it yet)"}, expires ${issued.expiresAt === undefined ? "never" : formatDateTime(issued.expiresAt)}\n` +
      "The key is shown only this once: store it now (for example: adreport keys add <profile> --stdin).\n",
  );
}
