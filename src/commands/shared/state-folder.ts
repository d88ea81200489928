/** Where incremental jobs keep their state: `state/` in the config folder (ADREPORT_CONFIG_DIR, XDG, ~/.config). */
import { join, resolve } from "node:path";
import type { Context } from "../context";
import { configFile } from "./settings";

export function stateFolder(ctx: Context): string {
  return join(resolve(ctx.cwd, configFile(ctx).dir), "state");
}
