/**
 * Where each setting comes from, in one place: flag > environment > profile > config file > default
 * (docs/service.md §9); whose key is sent and where, by the rule of credentials.ts. Every value is checked
 * against its rule wherever it came from, and a bad one names its source.
 */
import { AuthError, UsageError } from "../core/errors";
import { chooseCredentials, type KeyOwner, keyOwnerOf, keyOwnerText, type NameSource } from "./credentials";
import type { ConfigData, ProfileData } from "./file";
import { keyTextProblem, noProfileError } from "./profiles";
import { checkSetting, PROFILE_SETTING_NAMES, SETTINGS, type SettingName, type SettingValue } from "./settings";

type Source = "flag" | "job" | "environment" | "profile" | "config file" | "default";

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
  /** The profile flag was a job's own (verify), not typed: for the words of what it sets aside. */
  profileOfJob?: boolean;
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
  /** What was set and is not used (credentials.ts), one line each, for after `adreport: warning: `. */
  unused: readonly string[];
};

function checked<K extends SettingName>(name: K, value: unknown, where: string): SettingValue<K> {
  const result = checkSetting(name, value);
  if (!result.ok) throw new UsageError(`${where}: ${result.message}`);
  return result.value;
}

function resolveProfileName(layers: Layers): { value: string | undefined; source: NameSource } {
  const { flags, env, file } = layers;
  let chosen: { value: string | undefined; source: NameSource } = { value: undefined, source: "default" };
  if (flags.profile !== undefined) {
    const source = layers.profileOfJob === true ? "job" : "flag";
    chosen = { value: checked("profile", flags.profile, "--profile"), source };
  } else if (env.ADREPORT_PROFILE)
    chosen = { value: checked("profile", env.ADREPORT_PROFILE, "ADREPORT_PROFILE"), source: "environment" };
  else if (file.settings.profile !== undefined) {
    chosen = { value: checked("profile", file.settings.profile, `${layers.filePath}: profile`), source: "config file" };
  }
  if (chosen.value !== undefined && !Object.hasOwn(file.profiles, chosen.value)) {
    throw noProfileError(chosen.value, Object.keys(file.profiles), chosen.source === "job" ? "the job" : chosen.source);
  }
  return chosen;
}

export function resolveSettings(layers: Layers): ResolvedSettings {
  const named = resolveProfileName(layers);
  const credentials = chooseCredentials({
    name: named.value,
    nameSource: named.source,
    profiles: layers.file.profiles,
    flagKey: layers.flags["api-key"],
    flagUrl: layers.flags["base-url"],
    env: layers.env,
  });
  const profile: Resolved<string | undefined> =
    credentials.profile === undefined ? { value: undefined, source: "default" } : named;
  const profileData: ProfileData = profile.value === undefined ? {} : (layers.file.profiles[profile.value] ?? {});
  const result: Record<string, unknown> = { profile };
  for (const name of PROFILE_SETTING_NAMES) {
    const setting = SETTINGS[name];
    const flag = layers.flags[name];
    const envValue = setting.env === undefined ? undefined : layers.env[setting.env];
    const fromProfile = (): Resolved<unknown> => ({
      value: checked(name, profileData[name], `${layers.filePath}: profile ${profile.value}: ${name}`),
      source: "profile",
    });
    if (flag !== undefined) result[name] = { value: checked(name, flag, `--${name}`), source: "flag" };
    else if (name === "base-url" && credentials.profileUrlFirst) result[name] = fromProfile();
    else if (envValue !== undefined && envValue !== "" && setting.env !== undefined) {
      result[name] = { value: checked(name, envValue, setting.env), source: "environment" };
    } else if (profileData[name] !== undefined) {
      result[name] = fromProfile();
    } else if (layers.file.settings[name] !== undefined) {
      result[name] = {
        value: checked(name, layers.file.settings[name], `${layers.filePath}: ${name}`),
        source: "config file",
      };
    } else {
      result[name] = { value: setting.default, source: "default" };
    }
  }
  result["api-key"] = credentials.key;
  result.unused = credentials.warnings;
  return result as ResolvedSettings;
}

/** The key to send, or the error that says how to give one. */
export function requireApiKey(settings: ResolvedSettings): string {
  const key = settings["api-key"].value;
  const profile = settings.profile.value;
  if (key === undefined && profile !== undefined) {
    throw new AuthError(`no API key: profile ${profile} has none`, {
      hint: `store its key: adreport keys add ${profile} (a key in ADREPORT_API_KEY is never used for a named profile)`,
    });
  }
  if (key === undefined) {
    throw new AuthError("no API key", {
      hint: "set ADREPORT_API_KEY, or keep the key in a profile named for its account, e.g. adreport keys add acme",
    });
  }
  const problem = keyTextProblem(key);
  if (problem !== undefined) {
    const source = settings["api-key"].source;
    // A key left in the environment with a space or a line break (a file's CRLF) says how to set it aside.
    const hint =
      source === "environment"
        ? { hint: "set ADREPORT_API_KEY to the key alone, or unset ADREPORT_API_KEY to use a profile's key" }
        : {};
    throw new UsageError(`${keyOwnerText(keyOwnerOf(profile, source))}: ${problem}`, hint);
  }
  return key;
}

/** Whose key the settings send: a profile, or none (a key from --api-key or ADREPORT_API_KEY). */
export function keyOwner(settings: ResolvedSettings): KeyOwner {
  return keyOwnerOf(settings.profile.value, settings["api-key"].source);
}
