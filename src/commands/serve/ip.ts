/** `adreport serve ip add|remove`: a key's whitelist, printed as it stands afterwards. */
import type { Context } from "../context";
import { type DbOptions, withStore } from "./operator";

export async function runIp(
  ctx: Context,
  action: "add" | "remove",
  id: number,
  addresses: string[],
  options: DbOptions,
): Promise<void> {
  const ips = await withStore(ctx, options.db, false, (store) =>
    action === "add" ? store.addIps(id, addresses) : store.removeIps(id, addresses),
  );
  ctx.io.err.write(`adreport serve: key #${id} whitelist: ${ips.join(", ") || "(empty)"}\n`);
}
