/** `adreport config`: the settings in the config file, checked on the way in, and where each value comes from. */
import type { Command } from "@commander-js/extra-typings";
import type { Context } from "../context";
import type { OptionsOf } from "../shared/declared";
import { jsonAliasOption, recordFormatOption } from "../shared/records";

// Kept by hand (config/settings.ts loads zod, which start-up does without); a test checks it names them all.
export const KEYS =
  "base-url, profile, format, page-size, concurrency, timeout, retries, max-time, max-page-mb, rate, proxy, delimiter, spreadsheet, tz, account";

function declareGet(config: Command) {
  return config
    .command("get")
    .description("the value in effect for a setting")
    .argument("<key>", KEYS)
    .option("--profile <name>", "as seen with this profile");
}

function declareSet(config: Command) {
  return config
    .command("set")
    .description("store a setting in the config file, or in a profile with --profile")
    .argument("<key>", KEYS)
    .argument("<value>")
    .option("--profile <name>", "store it in this profile instead");
}

function declareUnset(config: Command) {
  return config
    .command("unset")
    .description("remove a setting from the config file (or from a profile)")
    .argument("<key>", KEYS)
    .option("--profile <name>", "remove it from this profile instead");
}

function declareList(config: Command) {
  return config
    .command("list")
    .description("every setting, its value and where it comes from (flag, environment, profile, config file, default)")
    .option("--profile <name>", "as seen with this profile")
    .option("--base-url <url>", "as seen with this flag")
    .addOption(recordFormatOption("table"))
    .addOption(jsonAliasOption());
}

export type ConfigGetOptions = OptionsOf<typeof declareGet>;
export type ConfigSetOptions = OptionsOf<typeof declareSet>;
export type ConfigUnsetOptions = OptionsOf<typeof declareUnset>;
export type ConfigListOptions = OptionsOf<typeof declareList>;

export function registerConfig(program: Command, ctx: Context): void {
  const config = program
    .command("config")
    .description("read and change settings (adreport help settings lists them, with their defaults)")
    .addHelpText(
      "after",
      `
Settings come from a flag, else the environment, else the profile, else the config file, else the default.

Examples:
  $ adreport config set page-size 500
  $ adreport config set base-url https://reports.example.com --profile acme
  $ adreport config set account "Acme Outdoor GmbH" --profile acme
  $ adreport config list
  $ adreport config path`,
    );
  const run = async () => import("./run");
  declareGet(config).action(async (key, options) => (await run()).runConfigGet(ctx, key, options));
  declareSet(config).action(async (key, value, options) => (await run()).runConfigSet(ctx, key, value, options));
  declareUnset(config).action(async (key, options) => (await run()).runConfigUnset(ctx, key, options));
  declareList(config).action(async (options) => (await run()).runConfigList(ctx, options));
  config
    .command("path")
    .description("where the config file is")
    .action(async () => (await run()).runConfigPath(ctx));
}
