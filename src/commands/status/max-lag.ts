/**
 * The lag each job is allowed: --max-lag, else the `max-lag` of the job's profile, else the config file's
 * own (config/settings.ts); none: the job raises no alert.
 */
import type { ConfigData } from "../../config/file";
import { checkSetting } from "../../config/settings";
import { UsageError } from "../../core/errors";
import { printable } from "../../core/printable";

export function flagMaxLag(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const checked = checkSetting("max-lag", text);
  if (!checked.ok)
    throw new UsageError(`--max-lag: ${JSON.stringify(printable(text.slice(0, 40)))}: ${checked.message}`);
  return checked.value;
}

/** The lag allowed for a job of `profile` (null: a job without one), or undefined. */
export function maxLagFor(
  flag: number | undefined,
  config: { data: ConfigData; path: string },
  profile: string | null,
): number | undefined {
  if (flag !== undefined) return flag;
  const own = profile === null ? undefined : config.data.profiles[profile]?.["max-lag"];
  const where = own !== undefined ? `${config.path}: profile ${profile}: max-lag` : `${config.path}: max-lag`;
  const value = own ?? config.data.settings["max-lag"];
  if (value === undefined) return undefined;
  const checked = checkSetting("max-lag", value);
  if (!checked.ok) throw new UsageError(`${where}: ${checked.message}`);
  return checked.value;
}
