/** `adreport keys`: profiles holding API keys, a test of a key from this host, and operator requests. */
import type { Command } from "@commander-js/extra-typings";
import type { Context } from "../context";
import { declareAdd, declareList, declareRequest, declareShow, declareTest } from "./flags";

export function registerKeys(program: Command, ctx: Context): void {
  const keys = program
    .command("keys")
    .description("manage API keys in profiles (one per advertiser account), test them, ask the operator for changes")
    .addHelpText(
      "after",
      `
Examples:
  $ adreport keys add acme --account "Acme Outdoor GmbH"   # asks for the key without echoing it
  $ vault read -field=key secret/acme | adreport keys add acme --stdin
  $ adreport keys test acme
  $ adreport keys test --all-profiles           # after the office's static IP changed
  $ adreport keys request add-ip --all-profiles --combined --ip 203.0.113.7
  $ adreport keys request add-ip --account "Acme Outdoor" --ip 203.0.113.7

keys request names each profile's account setting, the name the service's operator knows: keys add --account,
or adreport config set account "Acme Outdoor GmbH" --profile acme; when it is not set, it is asked once on a
terminal and saved, and elsewhere the letter names the profile and says so.`,
    );
  const run = async () => import("./run");

  declareAdd(keys).action(async (profile, options) => (await run()).runKeysAdd(ctx, profile, options));
  declareList(keys).action(async (options) => (await run()).runKeysList(ctx, options));
  keys
    .command("remove")
    .description("remove a profile and its key")
    .argument("<profile>")
    .action(async (profile) => (await run()).runKeysRemove(ctx, profile));
  keys
    .command("use")
    .description("make a profile the default")
    .argument("<profile>")
    .action(async (profile) => (await run()).runKeysUse(ctx, profile));
  declareShow(keys).action(async (profile, options) => (await run()).runKeysShow(ctx, profile, options));
  declareTest(keys).action(async (profile, options) => (await run()).runKeysTest(ctx, profile, options));
  declareRequest(keys).action(async (type, options) => (await run()).runKeysRequest(ctx, type, options));
}
