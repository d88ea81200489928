/**
 * Whose key is sent, and where: the one rule for it (docs/topics/environment.md, "Which key is used").
 *
 * 1. `--api-key`: that key. It belongs to no profile: `--profile` with it is refused, and a profile named by
 *    ADREPORT_PROFILE or made the default (`keys use`) is not used.
 * 2. A profile named by `--profile` or ADREPORT_PROFILE: its own key, and its own base-url when it has one.
 *    ADREPORT_API_KEY and ADREPORT_BASE_URL are not used for it (a warning says so); a profile without a key
 *    is "no API key" (exit 3), never the environment's key.
 * 3. Else ADREPORT_API_KEY: that key, belonging to no profile; the default profile is not used.
 * 4. Else the default profile's key (`keys use`).
 *
 * A key that belongs to no profile runs with no profile's settings, and its rows and jobs carry no profile
 * name, so a profile's name never labels another account's data. `--base-url` is a flag and always wins;
 * otherwise the environment's address outranks a profile that was not named, with a warning when it
 * differs (contract: flag > environment > profile). Runs over several profiles name each one (2); config/account-env.ts only says it once for all.
 */
import { sameService } from "../contract/endpoint";
import { UsageError } from "../core/errors";
import type { ProfileData } from "./file";

type Environment = Readonly<Record<string, string | undefined>>;

/** Where the profile's name came from (config/resolve.ts decides it: flag > environment > config file). */
export type NameSource = "flag" | "job" | "environment" | "config file" | "default";

/** Who the key in use belongs to, for the words of a message or hint about it. */
export type KeyOwner =
  | { readonly kind: "profile"; readonly profile: string }
  | { readonly kind: "flag" }
  | { readonly kind: "environment" }
  | { readonly kind: "none" };

export interface Credentials {
  /** The profile in effect: the one whose key is sent and whose settings apply; undefined for none. */
  profile: string | undefined;
  key: { value: string | undefined; source: "flag" | "environment" | "profile" | "default" };
  /** The profile's own base-url outranks ADREPORT_BASE_URL (a named profile that has one). */
  profileUrlFirst: boolean;
  /** What was set and is not used, one line each, for after `adreport: warning: `. */
  warnings: string[];
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** A profile's own base-url, if it has one. */
export function ownBaseUrl(profile: ProfileData | undefined): string | undefined {
  return text(profile?.["base-url"]);
}

function namedBy(source: NameSource): string {
  if (source === "job") return "the job";
  return source === "flag" ? "--profile" : "ADREPORT_PROFILE";
}

export function chooseCredentials(input: {
  name: string | undefined;
  nameSource: NameSource;
  profiles: Readonly<Record<string, ProfileData>>;
  flagKey: unknown;
  /** --base-url, which outranks every other address and so sets nothing aside worth a word. */
  flagUrl: unknown;
  env: Environment;
}): Credentials {
  const { name, nameSource, profiles, env } = input;
  const flagKey = text(input.flagKey);
  const envKey = text(env.ADREPORT_API_KEY);
  const warnings: string[] = [];
  if (flagKey !== undefined) {
    if (nameSource === "flag") {
      throw new UsageError("--api-key and --profile cannot be combined: a profile has its own key", {
        hint: `drop --api-key to use profile ${name}'s key, or drop --profile to use the key without a profile`,
      });
    }
    if (nameSource === "environment") {
      warnings.push(`ADREPORT_PROFILE (${name}) is not used: the key given with --api-key belongs to no profile`);
    } else if (name !== undefined) {
      warnings.push(`the default profile ${name} is not used: the key given with --api-key belongs to no profile`);
    }
    if (envKey !== undefined) warnings.push("ADREPORT_API_KEY is not used: the key given with --api-key wins");
    return { profile: undefined, key: { value: flagKey, source: "flag" }, profileUrlFirst: false, warnings };
  }
  if (name !== undefined && (nameSource === "flag" || nameSource === "job" || nameSource === "environment")) {
    const profile = profiles[name];
    const by = namedBy(nameSource);
    if (envKey !== undefined) {
      warnings.push(`ADREPORT_API_KEY is not used: profile ${name} (named by ${by}) uses its own key`);
    }
    const ownUrl = ownBaseUrl(profile);
    const envUrl = text(env.ADREPORT_BASE_URL);
    if (ownUrl !== undefined && envUrl !== undefined && input.flagUrl === undefined && !sameService(ownUrl, envUrl)) {
      warnings.push(`ADREPORT_BASE_URL is not used: profile ${name} (named by ${by}) uses its own base-url`);
    }
    const own = text(profile?.["api-key"]);
    return {
      profile: name,
      key: own === undefined ? { value: undefined, source: "default" } : { value: own, source: "profile" },
      profileUrlFirst: ownUrl !== undefined,
      warnings,
    };
  }
  if (envKey !== undefined) {
    if (name !== undefined) {
      warnings.push(
        `the default profile ${name} is not used: the key in ADREPORT_API_KEY belongs to no profile (--profile ${name} uses ${name}'s own key)`,
      );
    }
    return { profile: undefined, key: { value: envKey, source: "environment" }, profileUrlFirst: false, warnings };
  }
  const own = name === undefined ? undefined : text(profiles[name]?.["api-key"]);
  const ownUrl = name === undefined ? undefined : ownBaseUrl(profiles[name]);
  const envUrl = text(env.ADREPORT_BASE_URL);
  const elsewhere = ownUrl !== undefined && envUrl !== undefined && !sameService(ownUrl, envUrl);
  if (own !== undefined && elsewhere && input.flagUrl === undefined) {
    // Its key goes to an address that is not its own: said, since that address may be another account's.
    warnings.push(
      `the default profile ${name}'s base-url is not used: its key goes to ADREPORT_BASE_URL (--profile ${name} uses its own base-url)`,
    );
  }
  return {
    profile: name,
    key: own === undefined ? { value: undefined, source: "default" } : { value: own, source: "profile" },
    profileUrlFirst: false,
    warnings,
  };
}

/** Who the key of resolved settings belongs to. */
export function keyOwnerOf(profile: string | undefined, keySource: string): KeyOwner {
  if (keySource === "flag") return { kind: "flag" };
  if (keySource === "environment") return { kind: "environment" };
  if (profile !== undefined) return { kind: "profile", profile };
  return { kind: "none" };
}

/** The key in words: `profile acme`, `the key in ADREPORT_API_KEY`, `the key given with --api-key`. */
export function keyOwnerText(owner: KeyOwner): string {
  if (owner.kind === "profile") return `profile ${owner.profile}`;
  if (owner.kind === "environment") return "the key in ADREPORT_API_KEY";
  if (owner.kind === "flag") return "the key given with --api-key";
  return "the key";
}
