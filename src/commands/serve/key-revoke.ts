/** `adreport serve key revoke`: a key stops working (revoking it again changes nothing). */
import { revokeKey } from "../../server";
import type { Context } from "../context";
import { type DbOptions, nowSeconds, withDatabase } from "./operator";

export async function runKeyRevoke(ctx: Context, id: number, options: DbOptions): Promise<void> {
  await withDatabase(ctx, options.db, false, (db) => {
    revokeKey(db, id, nowSeconds(ctx));
  });
  ctx.io.err.write(`adreport serve: key #${id} revoked\n`);
}
