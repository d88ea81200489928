/** The flags and arguments of `adreport config`'s subcommands, and the options types their runs take. */
import type { Command } from "@commander-js/extra-typings";
import type { OptionsOf } from "../shared/declared";
import { jsonAliasOption, recordFormatOption } from "../shared/records";

// Kept by hand (config/settings.ts loads zod, which start-up does without); a test checks it names them all.
export const KEYS =
  "base-url, profile, format, page-size, concurrency, timeout, retries, max-time, max-page-mb, rate, proxy, delimiter, spreadsheet, tz, max-lag, account";

export function declareGet(config: Command) {
  return config
    .command("get")
    .description("the value in effect for a setting")
    .argument("<key>", KEYS)
    .option("--profile <name>", "as seen with this profile");
}

export function declareSet(config: Command) {
  return config
    .command("set")
    .description("store a setting in the config file, or in a profile with --profile")
    .argument("<key>", KEYS)
    .argument("<value>")
    .option("--profile <name>", "store it in this profile instead");
}

export function declareUnset(config: Command) {
  return config
    .command("unset")
    .description("remove a setting from the config file (or from a profile)")
    .argument("<key>", KEYS)
    .option("--profile <name>", "remove it from this profile instead");
}

export function declareList(config: Command) {
  return config
    .command("list")
    .description(
      "every setting, its value and where it comes from (flag, environment, profile, config file, default): a table on a terminal, tab-separated lines elsewhere",
    )
    .option("--profile <name>", "as seen with this profile")
    .option("--base-url <url>", "as seen with this flag")
    .addOption(recordFormatOption("table"))
    .addOption(jsonAliasOption());
}

export type ConfigGetOptions = OptionsOf<typeof declareGet>;
export type ConfigSetOptions = OptionsOf<typeof declareSet>;
export type ConfigUnsetOptions = OptionsOf<typeof declareUnset>;
export type ConfigListOptions = OptionsOf<typeof declareList>;
