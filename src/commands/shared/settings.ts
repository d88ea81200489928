/** Reads the config file and resolves every setting for a command, warning about loose file modes. */
import { ConfigFile, configDir } from "../../config/file";
import { type Layers, type ResolvedSettings, resolveSettings } from "../../config/resolve";
import type { Context } from "../context";

export async function loadSettings(
  ctx: Context,
  flags: Layers["flags"],
): Promise<{ settings: ResolvedSettings; file: ConfigFile }> {
  const file = new ConfigFile(configDir(ctx.env));
  const data = await file.read();
  const warning = file.permissionWarning();
  if (warning) ctx.io.err.write(`adreport: warning: ${warning}\n`);
  return { settings: resolveSettings({ flags, env: ctx.env, file: data, filePath: file.path }), file };
}
