/** `adreport serve key revoke`: a key stops working (revoking it again changes nothing). */
import type { Context } from "../context";
import { type DbOptions, nowSeconds, withStore } from "./operator";

export async function runKeyRevoke(ctx: Context, id: number, options: DbOptions): Promise<void> {
  await withStore(ctx, options.db, false, (store) => store.revokeKey(id, nowSeconds(ctx)));
  ctx.io.err.write(`adreport serve: key #${id} revoked\n`);
}
