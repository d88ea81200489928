/**
 * Where each setting comes from, in one place: flag > environment > profile > config file > default
 * (docs/service.md §9). Every value is checked against its rule wherever it came from, and a bad one names
 * its source.
 */
import { AuthError, UsageError } from "../core/errors";
import type { ConfigData, ProfileData } from "./file";
import { noProfileError } from "./profiles";
import { checkSetting, PROFILE_SETTING_NAMES, SETTINGS, type SettingName, type SettingValue } from "./settings";

type Source = "flag" | "environment" | "profile" | "config file" | "default";

interface Resolved<T> {
  value: T;
  source: Source;
}

export interface Layers {
  /** Flags the user gave (undefined when not given). */
  flags: Partial<Record<SettingName | "api-key", unknown>>;
  env: Readonly<Record<string, string | undefined>>;
  file: ConfigData;
  /** Where the file is, for messages. */
  filePath: string;
}

/** A setting with a default always has a value; one without may have none. */
type Value<K extends SettingName> = undefined extends (typeof SETTINGS)[K]["default"]
  ? SettingValue<K> | undefined
  : SettingValue<K>;

export type ResolvedSettings = {
  [K in Exclude<SettingName, "profile">]: Resolved<Value<K>>;
} & {
  profile: Resolved<string | undefined>;
  "api-key": Resolved<string | undefined>;
};

function checked<K extends SettingName>(name: K, value: unknown, where: string): SettingValue<K> {
  const result = checkSetting(name, value);
  if (!result.ok) throw new UsageError(`${where}: ${result.message}`);
  return result.value;
}

function resolveProfileName(layers: Layers): Resolved<string | undefined> {
  const { flags, env, file } = layers;
  let chosen: Resolved<string | undefined> = { value: undefined, source: "default" };
  if (flags.profile !== undefined) chosen = { value: checked("profile", flags.profile, "--profile"), source: "flag" };
  else if (env.ADREPORT_PROFILE)
    chosen = { value: checked("profile", env.ADREPORT_PROFILE, "ADREPORT_PROFILE"), source: "environment" };
  else if (file.settings.profile !== undefined) {
    chosen = { value: checked("profile", file.settings.profile, `${layers.filePath}: profile`), source: "config file" };
  }
  if (chosen.value !== undefined && !Object.hasOwn(file.profiles, chosen.value)) {
    throw noProfileError(chosen.value, Object.keys(file.profiles), chosen.source);
  }
  return chosen;
}

export function resolveSettings(layers: Layers): ResolvedSettings {
  const profile = resolveProfileName(layers);
  const profileData: ProfileData = profile.value === undefined ? {} : (layers.file.profiles[profile.value] ?? {});
  const result: Record<string, Resolved<unknown>> = { profile };
  for (const name of PROFILE_SETTING_NAMES) {
    const setting = SETTINGS[name];
    const flag = layers.flags[name];
    const envValue = setting.env === undefined ? undefined : layers.env[setting.env];
    if (flag !== undefined) result[name] = { value: checked(name, flag, `--${name}`), source: "flag" };
    else if (envValue !== undefined && envValue !== "" && setting.env !== undefined) {
      result[name] = { value: checked(name, envValue, setting.env), source: "environment" };
    } else if (profileData[name] !== undefined) {
      result[name] = {
        value: checked(name, profileData[name], `${layers.filePath}: profile ${profile.value}: ${name}`),
        source: "profile",
      };
    } else if (layers.file.settings[name] !== undefined) {
      result[name] = {
        value: checked(name, layers.file.settings[name], `${layers.filePath}: ${name}`),
        source: "config file",
      };
    } else {
      result[name] = { value: setting.default, source: "default" };
    }
  }
  const flagKey = layers.flags["api-key"];
  const envKey = layers.env.ADREPORT_API_KEY;
  const fileKey = profileData["api-key"];
  result["api-key"] =
    typeof flagKey === "string" && flagKey !== ""
      ? { value: flagKey, source: "flag" }
      : envKey
        ? { value: envKey, source: "environment" }
        : typeof fileKey === "string" && fileKey !== ""
          ? { value: fileKey, source: "profile" }
          : { value: undefined, source: "default" };
  return result as ResolvedSettings;
}

/** The key to send, or the error that says how to give one. */
export function requireApiKey(settings: ResolvedSettings): string {
  const key = settings["api-key"].value;
  if (key === undefined) {
    throw new AuthError("no API key", {
      hint: "set ADREPORT_API_KEY, or store a key in a profile: adreport keys add <profile> (then --profile or keys use)",
    });
  }
  if (/\s/.test(key)) throw new UsageError(`the API key from ${settings["api-key"].source} contains white space`);
  return key;
}
