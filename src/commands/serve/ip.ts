/** `adreport serve ip add|remove`: a key's whitelist, printed as it stands afterwards. */
import { addIps, removeIps } from "../../server";
import type { Context } from "../context";
import { type DbOptions, withDatabase } from "./operator";

export async function runIp(
  ctx: Context,
  action: "add" | "remove",
  id: number,
  addresses: string[],
  options: DbOptions,
): Promise<void> {
  const ips = await withDatabase(ctx, options.db, false, (db) => {
    return action === "add" ? addIps(db, id, addresses) : removeIps(db, id, addresses);
  });
  ctx.io.err.write(`adreport serve: key #${id} whitelist: ${ips.join(", ") || "(empty)"}\n`);
}
