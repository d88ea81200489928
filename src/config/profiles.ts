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
  if (looksLikeKey(name)) {
    return new UsageError(`no profile by that name${from}, which looks like a key (not shown); ${others}`, {
      hint: "a key is stored in a profile, whose name --profile takes: adreport keys add --help",
    });
  }
  const add = PROFILE_NAME.test(name)
    ? `add it with: adreport keys add ${name}`
    : "add one with: adreport keys add NAME";
  // A name left in the environment, or a default whose profile was removed by hand, is rarely one to add.
  const instead =
    source === "environment"
      ? "unset ADREPORT_PROFILE, or "
      : source === "config file" && known[0] !== undefined
        ? `make another the default: adreport keys use ${known[0]}; or `
        : "";
  return new UsageError(`no profile named ${JSON.stringify(name)}${from}; ${others}`, { hint: `${instead}${add}` });
}

/**
 * A key pasted where a profile name goes: long, with upper and lower case letters and digits, as generated
 * keys are and names people choose rarely are. Never echoed, nor offered as a profile to add.
 */
function looksLikeKey(name: string): boolean {
  return name.length >= 24 && /[A-Z]/.test(name) && /[a-z]/.test(name) && /[0-9]/.test(name);
}

export function profileNamed(data: ConfigData, name: string): ProfileData {
  const profile = data.profiles[name];
  if (!profile) throw noProfileError(name, Object.keys(data.profiles));
  return profile;
}

// Cc: C0, DEL, C1; Cf: invisible format characters (a byte-order mark, zero-width and bidirectional marks).
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

/** What is wrong with a key's text (it is never shown), or undefined: one rule for a stored key and a given one. */
export function keyTextProblem(key: string): string | undefined {
  if (/\s/.test(key)) return "the key contains white space; paste it on one line";
  if (INVISIBLE.test(key))
    return "the key contains control or invisible characters (not shown); paste the key as plain text";
  return undefined;
}

/** The key's problems that can be seen without sending it anywhere: the key trimmed, or exit 2. */
export function checkKeyText(key: string): string {
  const trimmed = key.trim();
  if (trimmed === "") throw new UsageError("no key given (the input was empty)");
  const problem = keyTextProblem(trimmed);
  if (problem !== undefined) throw new UsageError(problem);
  if (trimmed.length > 512) throw new UsageError("the key is longer than 512 characters; is it the right text?");
  return trimmed;
}
