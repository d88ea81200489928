/** The flags of a run over several accounts that are refused together, and --fields shared between accounts. */
import { UsageError } from "../../core/errors";
import type { ReportFlags } from "./flags";

export function refuseMixedFlags(flags: ReportFlags): void {
  const which = flags.allProfiles === true ? "--all-profiles" : "--profiles";
  if (flags.profiles !== undefined && flags.allProfiles === true) {
    throw new UsageError("--profiles and --all-profiles cannot be combined: give one of them");
  }
  if (flags.profile !== undefined) {
    throw new UsageError(`--profile and ${which} cannot be combined`, {
      hint: `${which} uses each profile's own key and settings; drop --profile`,
    });
  }
  if (flags.apiKey !== undefined) {
    throw new UsageError(`--api-key cannot be used with ${which}: a key sees one advertiser account`, {
      hint: "drop --api-key: each account sends its profile's own key (adreport keys list)",
    });
  }
}

/**
 * --fields over several accounts: `profile` may be listed (each account's export is asked for the rest);
 * the shared text output shows it first unless it was placed.
 */
export function fieldsOverAccounts(fields: string | undefined): {
  account: string | undefined;
  shared: string[] | undefined;
} {
  if (fields === undefined) return { account: undefined, shared: undefined };
  const listed = fields.split(",").map((name) => name.trim());
  const rest = listed.filter((name) => name !== "profile");
  return {
    account: rest.length === 0 ? undefined : rest.join(","),
    shared: listed.includes("profile") ? listed : ["profile", ...listed],
  };
}
