/**
 * The environment each account of a run over several profiles sees (`report --profiles/--all-profiles`,
 * `keys test --all`). Each account is a named profile, so credentials.ts's rule already sends its own key,
 * and its own base-url when it has one; this says what that sets aside once for all the accounts, and
 * leaves those variables out of each account's environment so that no account says it again.
 */
import { sameService } from "../contract/endpoint";
import { ownBaseUrl } from "./credentials";
import type { ConfigData } from "./file";

type Environment = Readonly<Record<string, string | undefined>>;

export interface AccountEnvironments {
  /** The environment to resolve `profile`'s settings in. */
  envFor(profile: string): Record<string, string | undefined>;
  /** Printed once by the caller, each after `adreport: warning: `. */
  warnings: string[];
}

const SHOWN = 5;

function namesText(names: readonly string[]): string {
  const shown = names.slice(0, SHOWN).join(", ");
  return names.length > SHOWN ? `${shown} and ${names.length - SHOWN} more` : shown;
}

export function accountEnvironments(env: Environment, data: ConfigData, names: readonly string[]): AccountEnvironments {
  const { ADREPORT_API_KEY: key, ADREPORT_PROFILE: _profile, ...shared } = env;
  const warnings: string[] = [];
  if (key) warnings.push("ADREPORT_API_KEY is ignored: each account uses its profile's key");
  const envUrl = shared.ADREPORT_BASE_URL;
  const ownUrl = (name: string): string | undefined => ownBaseUrl(data.profiles[name]);
  const keepOwn = envUrl ? names.filter((name) => ownUrl(name) !== undefined) : [];
  const differing = keepOwn.filter((name) => !sameService(ownUrl(name) as string, envUrl as string));
  if (differing.length > 0) {
    warnings.push(`ADREPORT_BASE_URL is ignored for ${namesText(differing)}: each uses its profile's base-url`);
  }
  const { ADREPORT_BASE_URL: _url, ...withoutUrl } = shared;
  return {
    envFor: (profile) => (keepOwn.includes(profile) ? { ...withoutUrl } : { ...shared }),
    warnings,
  };
}
