/** `adreport serve init`: creates an empty database; one that exists is left as it is. */
import type { Context } from "../context";
import { type DbOptions, withDatabase } from "./operator";

export async function runInit(ctx: Context, options: DbOptions): Promise<void> {
  await withDatabase(ctx, options.db, true, () => undefined);
  ctx.io.err.write(`adreport serve: ${options.db} is ready\n`);
}
