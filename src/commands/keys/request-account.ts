/**
 * The account a letter to the operator names: a profile's `account` setting (the advertiser or account name
 * the operator knows; a profile's name is only ours). A missing one is asked once on a terminal and saved in
 * the profile; elsewhere the letter names the profile and a note on stderr says so and how to set the
 * account, so the request every hint prints (`keys request add-ip --profile P ...`) runs as printed.
 */
import { profileNamed } from "../../config/profiles";
import { checkSetting } from "../../config/settings";
import { UsageError } from "../../core/errors";
import { tagLine, writesJsonLogs } from "../../core/log-codes";
import { askLines } from "../../io/input";
import type { Context } from "../context";
import { readConfig } from "../shared/settings";

/** The accounts of these profiles, in their order; missing ones asked for (on a terminal) and saved. */
export async function accountsOf(
  ctx: Context,
  profiles: readonly string[],
  config?: Awaited<ReturnType<typeof readConfig>>,
): Promise<string[]> {
  const { file, data } = config ?? (await readConfig(ctx));
  const accounts = new Map<string, string>();
  for (const profile of profiles) {
    const stored = profileNamed(data, profile).account;
    if (stored === undefined) continue;
    const checked = checkSetting("account", stored);
    if (!checked.ok) throw new UsageError(`${file.path}: profile ${profile}: account: ${checked.message}`);
    accounts.set(profile, checked.value);
  }
  const missing = profiles.filter((profile) => !accounts.has(profile));
  if (missing.length > 0) {
    if (!ctx.io.inIsTTY) {
      const named =
        missing.length === 1
          ? `profile ${missing[0]} has no account set, so the letter names it ${JSON.stringify(missing[0])}`
          : `profiles ${missing.join(", ")} have no account set, so the letters name them by the profiles' names`;
      ctx.io.err.write(
        `adreport: note: ${named}; if the operator knows the account by another name, set that: adreport config set account NAME --profile ${missing[0]}\n`,
      );
      return profiles.map((profile) => accounts.get(profile) ?? profile);
    }
    const answers = await askLines(
      ctx.io,
      missing.map((profile) => `Account name the operator knows for profile ${profile}: `),
      // JSON logs keep a line until its line feed: there each prompt is a record of its own.
      writesJsonLogs(ctx.io.err)
        ? (prompt) => {
            tagLine(ctx.io.err, { code: "note" });
            ctx.io.err.write(`${prompt.trimEnd()}\n`);
          }
        : undefined,
    );
    missing.forEach((profile, index) => {
      const checked = checkSetting("account", answers[index] ?? "");
      if (!checked.ok) throw new UsageError(`account of profile ${profile}: ${checked.message}`);
      profileNamed(data, profile).account = checked.value;
      accounts.set(profile, checked.value);
    });
    await file.write(data);
    ctx.io.err.write(
      `adreport: saved the account of ${missing.join(", ")} in ${file.path} (change it: adreport config set account NAME --profile P)\n`,
    );
  }
  return profiles.map((profile) => accounts.get(profile) as string);
}
