/** `adreport serve upgrade`: a database of an older adreport brought to this one's layout, in place. */
import { databaseLabel, SCHEMA_VERSION, upgradeDatabase } from "../../server";
import type { Context } from "../context";
import { type DbOptions, operatorVerb } from "./operator";

export async function runUpgrade(ctx: Context, options: DbOptions): Promise<void> {
  const result = await operatorVerb(() => upgradeDatabase(options.db, { nativeBinding: ctx.sqliteAddon() }));
  const label = databaseLabel(options.db);
  if (!result.upgraded) {
    ctx.io.err.write(`adreport serve: ${label} is up to date (schema version ${SCHEMA_VERSION})\n`);
    return;
  }
  const added =
    result.missing.length > 0 ? `; counters added, at 0 for the hours loaded: ${result.missing.join(", ")}` : "";
  ctx.io.err.write(
    `adreport serve: ${label} upgraded from schema version ${result.from} to ${SCHEMA_VERSION}${added}\n`,
  );
}
