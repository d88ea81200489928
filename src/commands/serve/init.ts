/** `adreport serve init`: creates an empty database; one that exists is left as it is. */
import { databaseLabel } from "../../server";
import type { Context } from "../context";
import { type DbOptions, withStore } from "./operator";

export async function runInit(ctx: Context, options: DbOptions): Promise<void> {
  await withStore(ctx, options.db, true, async () => undefined);
  ctx.io.err.write(`adreport serve: ${databaseLabel(options.db)} is ready\n`);
}
