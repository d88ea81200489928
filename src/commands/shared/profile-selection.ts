/** The profiles a command runs over (--profiles a,b / --all-profiles), in name order, each one checked. */
import { checkProfileName, noProfileError } from "../../config/profiles";
import { PROFILE_NAME } from "../../config/settings";
import { UsageError } from "../../core/errors";
import { printable } from "../../core/printable";

/** Ordered by name as stored (code points), so the order does not depend on the machine's locale. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `named` (from --profiles) or every profile (`all`); refuses before any request a name that is not a
 * profile, and a run over no profile at all.
 */
export function selectProfiles(known: readonly string[], named: readonly string[] | undefined, all: boolean): string[] {
  if (all) {
    if (known.length === 0) {
      throw new UsageError("--all-profiles: there are no profiles yet", {
        hint: "add one per account with: adreport keys add <profile>",
      });
    }
    // A hand-edited config file may hold any name: one that is a path or a terminal escape would reach
    // {profile} file names and stderr.
    const bad = known.find((name) => !PROFILE_NAME.test(name));
    if (bad !== undefined) {
      throw new UsageError(
        `the config file has a profile named ${printable(JSON.stringify(bad).slice(0, 80))} that is not a profile name: letters, digits, '.', '_' or '-' (64 at most)`,
        { hint: "rename it in the config file (adreport config path), or name the profiles to run with --profiles" },
      );
    }
    return [...known].sort(byName);
  }
  const names = [...new Set(named ?? [])];
  if (names.length === 0) throw new UsageError("--profiles: name at least one profile, e.g. --profiles acme,globex");
  for (const name of names) {
    checkProfileName(name);
    if (!known.includes(name)) throw noProfileError(name, [...known].sort(byName), "--profiles");
  }
  return names.sort(byName);
}
