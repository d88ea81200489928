/** Where incremental jobs keep their state: `state/` in the config folder (ADREPORT_CONFIG_DIR, XDG, ~/.config). */
import { join, resolve } from "node:path";
import type { Context } from "../context";
import { configFile } from "./settings";

/** Where runs of one key at one service share their pace (api/pace.ts): `state/pace/`. */
export function paceFolder(ctx: Context): string {
  return join(stateFolder(ctx), "pace");
}

export function stateFolder(ctx: Context): string {
  return join(resolve(ctx.cwd, configFile(ctx).dir), "state");
}
