/**
 * The environment each account of a run over several profiles sees (`report --profiles/--all-profiles`,
 * `keys test --all`). ADREPORT_API_KEY and ADREPORT_PROFILE name one account: dropped for all.
 * ADREPORT_BASE_URL outranks a profile for one account, but over several it would send every account's key
 * to one address: a profile with a base-url of its own keeps it, and only profiles without one use the
 * environment's.
 */
import type { ConfigData } from "./file";

type Environment = Readonly<Record<string, string | undefined>>;

export interface AccountEnvironments {
  /** The environment to resolve `profile`'s settings in. */
  envFor(profile: string): Record<string, string | undefined>;
  /** Printed once by the caller, each after `adreport: warning: `. */
  warnings: string[];
}

const SHOWN = 5;

const sameUrl = (a: string, b: string) => a.replace(/\/+$/, "") === b.replace(/\/+$/, "");

function namesText(names: readonly string[]): string {
  const shown = names.slice(0, SHOWN).join(", ");
  return names.length > SHOWN ? `${shown} and ${names.length - SHOWN} more` : shown;
}

export function accountEnvironments(env: Environment, data: ConfigData, names: readonly string[]): AccountEnvironments {
  const { ADREPORT_API_KEY: key, ADREPORT_PROFILE: _profile, ...shared } = env;
  const warnings: string[] = [];
  if (key) warnings.push("ADREPORT_API_KEY is ignored: each account uses its profile's key");
  const envUrl = shared.ADREPORT_BASE_URL;
  const ownUrl = (name: string): string | undefined => {
    const own = data.profiles[name]?.["base-url"];
    return typeof own === "string" && own !== "" ? own : undefined;
  };
  const keepOwn = envUrl ? names.filter((name) => ownUrl(name) !== undefined) : [];
  const differing = keepOwn.filter((name) => !sameUrl(ownUrl(name) as string, envUrl as string));
  if (differing.length > 0) {
    warnings.push(`ADREPORT_BASE_URL is ignored for ${namesText(differing)}: each uses its profile's base-url`);
  }
  const { ADREPORT_BASE_URL: _url, ...withoutUrl } = shared;
  return {
    envFor: (profile) => (keepOwn.includes(profile) ? { ...withoutUrl } : { ...shared }),
    warnings,
  };
}
