/** Reads the config file and resolves every setting for a command, warning about keys others can read. */
import { type ConfigData, ConfigFile } from "../../config/file";
import { type Layers, type ResolvedSettings, resolveSettings } from "../../config/resolve";
import type { Context } from "../context";

/** This user's config file; nothing is read until asked. */
export function configFile(ctx: Context): ConfigFile {
  return ConfigFile.of(ctx.env, ctx.user, ctx.cwd);
}

const said = new WeakMap<object, Set<string>>();

function saidOn(err: object): Set<string> {
  const lines = said.get(err) ?? new Set<string>();
  said.set(err, lines);
  return lines;
}

/** `err` (an account's stderr in a run over several) says the settings' warnings once with the run's `runErr`. */
export function shareSettingWarnings(err: object, runErr: object): void {
  said.set(err, saidOn(runErr));
}

/** A warning on stderr, once per run however many times the settings are loaded (verify loads them thrice). */
function warnOnce(ctx: Context, line: string): void {
  const lines = saidOn(ctx.io.err);
  if (lines.has(line)) return;
  lines.add(line);
  ctx.io.err.write(`adreport: warning: ${line}\n`);
}

/** The config file's content, refused if someone else could have written it. */
export async function readConfig(ctx: Context): Promise<{ file: ConfigFile; data: ConfigData }> {
  const file = configFile(ctx);
  const data = await file.read();
  const warning = file.permissionWarning();
  if (warning) warnOnce(ctx, warning);
  return { file, data };
}

/** Says what was set and is not used (a key or address in the environment, the default profile). */
export function warnUnused(ctx: Context, settings: ResolvedSettings): void {
  for (const line of settings.unused) warnOnce(ctx, line);
}

/**
 * Every setting in effect for a command, from its flags, the environment and the config file; what was set
 * and is not used is said on stderr.
 */
export async function loadSettings(
  ctx: Context,
  flags: Layers["flags"],
  options: { profileOfJob?: boolean } = {},
): Promise<ResolvedSettings> {
  const { file, data } = await readConfig(ctx);
  const settings = resolveSettings({ flags, env: ctx.env, file: data, filePath: file.path, ...options });
  warnUnused(ctx, settings);
  return settings;
}
