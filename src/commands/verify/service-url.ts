/**
 * The service `verify` sends a key to (--against-service, --repair). A job's base URL is part of its identity
 * (state/job.ts), but the key is its profile's (or, with no profile, the environment's), and the URL that key
 * is for may have moved since the job was made: then the key goes to neither URL until --base-url names one.
 */
import type { ResolvedSettings } from "../../config/resolve";
import { sameService } from "../../contract/endpoint";
import { AuthError, UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import { shellWord } from "../../core/shell-word";
import type { JobState } from "../../state/store";
import type { Context } from "../context";
import { type JobFlagChoices, loadJobSettings } from "./job-settings";

const SOURCE_WORDS: Record<string, string> = {
  environment: "ADREPORT_BASE_URL",
  "config file": "the config file's base-url",
  default: "the default base URL",
};

/**
 * A job of no profile was made with a key of no profile (ADREPORT_API_KEY or --api-key): the default
 * profile's key, or ADREPORT_PROFILE's, is another account's, whose totals and rows are not the job's.
 */
function checkKeyOwner(state: JobState, settings: ResolvedSettings, command: string): ResolvedSettings {
  const profile = settings.profile.value;
  if (state.job.profile !== null || profile === undefined) return settings;
  const by = settings.profile.source === "environment" ? "named by ADREPORT_PROFILE" : "the default profile";
  throw new AuthError(
    `job ${state.id} was made with a key of no profile (ADREPORT_API_KEY or --api-key): ` +
      `profile ${profile}'s key (${by}) is another account's and is not sent for it`,
    { hint: `export ADREPORT_API_KEY with the key the job was made with, then run: ${command}` },
  );
}

/**
 * `command`: the verify line as the user ran it, for the hint. Returns the base URL to ask; with --base-url,
 * says on stderr when it is not the job's.
 */
export async function serviceUrl(
  ctx: Context,
  state: JobState,
  choices: JobFlagChoices,
  command: string,
): Promise<string> {
  const made = state.job.baseUrl;
  if (choices.baseUrl !== undefined) {
    // Checked by the setting's rule before it is shown (a URL with a password in it is refused, not printed).
    const settings = await loadJobSettings(ctx, state, choices.baseUrl);
    const named = checkKeyOwner(state, settings, command)["base-url"].value;
    if (!sameService(named, made)) {
      ctx.io.err.write(
        `adreport: job ${state.id} was made against ${printable(made)}; asking ${printable(named)} (--base-url)\n`,
      );
    }
    return named;
  }
  const current = checkKeyOwner(state, await loadJobSettings(ctx, state, undefined), command)["base-url"];
  if (sameService(current.value, made)) return made;
  const profile = state.job.profile;
  const who =
    current.source === "profile" && profile !== null
      ? `profile ${profile}`
      : (SOURCE_WORDS[current.source] ?? current.source);
  throw new UsageError(
    `job ${state.id} was made against ${printable(made)}, but ${who} now names ${printable(current.value)}: ` +
      "the key is sent to neither until --base-url names the service to ask",
    { hint: `if the service moved there, run: ${command} --base-url ${shellWord(current.value)}` },
  );
}
