/** `adreport config`: the settings in the config file, checked on the way in, and where each value comes from. */
import type { Command } from "@commander-js/extra-typings";
import type { Context } from "../context";
import { declareGet, declareList, declareSet, declareUnset } from "./flags";

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
