/** Profiles in the config data: one per advertiser account, each with its key and optional settings. */
import { UsageError } from "../core/errors";
import type { ConfigData, ProfileData } from "./file";
import { PROFILE_NAME } from "./settings";

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(
      `${JSON.stringify(name)} is not a profile name: use letters, digits, '.', '_' or '-' (64 at most)`,
    );
  }
  return name;
}

/**
 * The one refusal of a profile name the config file does not have, with the names it does have.
 * `source` says where the name came from when it was not typed as this command's argument.
 */
export function noProfileError(name: string, known: readonly string[], source?: string): UsageError {
  const from = source === undefined ? "" : ` (from ${source})`;
  const others = known.length > 0 ? `known: ${known.join(", ")}` : "none is set up yet";
  return new UsageError(`no profile named ${JSON.stringify(name)}${from}; ${others}`, {
    hint: "add one with: adreport keys add <profile>",
  });
}

export function profileNamed(data: ConfigData, name: string): ProfileData {
  const profile = data.profiles[name];
  if (!profile) throw noProfileError(name, Object.keys(data.profiles));
  return profile;
}

/** The key's problems that can be seen without sending it anywhere. */
export function checkKeyText(key: string): string {
  const trimmed = key.trim();
  if (trimmed === "") throw new UsageError("no key given (the input was empty)");
  if (/\s/.test(trimmed)) throw new UsageError("the key contains white space; paste it on one line");
  if (trimmed.length > 512) throw new UsageError("the key is longer than 512 characters; is it the right text?");
  return trimmed;
}
