/** `adreport serve key rotate`: a new key in place of an old one, which stops at once. */
import type { Context } from "../context";
import { type DbOptions, nowSeconds, withStore } from "./operator";

export async function runKeyRotate(ctx: Context, id: number, options: DbOptions): Promise<void> {
  const issued = await withStore(ctx, options.db, false, (store) => store.rotateKey(id, nowSeconds(ctx)));
  ctx.io.out.write(`${issued.key}\n`);
  ctx.io.err.write(
    `adreport serve: key #${id} revoked and replaced by key #${issued.id}; the new key is shown only this once\n`,
  );
}
