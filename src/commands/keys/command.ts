/** `adreport keys`: profiles holding API keys, a test of a key from this host, and operator requests. */
import { Argument, type Command, Option } from "@commander-js/extra-typings";
import type { Context } from "../context";
import type { OptionsOf } from "../shared/declared";
import { collect } from "../shared/parse";
import { jsonAliasOption, recordFormatOption } from "../shared/records";
import { REQUEST_TYPE_NAMES } from "./request-text";

function declareAdd(keys: Command) {
  return keys
    .command("add")
    .description("store a key in a profile: from a hidden prompt on a terminal, or from stdin; never from argv")
    .argument("<profile>", "a name for the account, e.g. acme")
    .option("--stdin", "read the key from stdin (the default when stdin is not a terminal)")
    .option("--base-url <url>", "this profile's service address")
    .option("--default", "make it the default profile (the first profile becomes it anyway)");
}

function declareList(keys: Command) {
  return keys
    .command("list")
    .description("profiles with their masked keys, base URLs, accounts, and which is the default")
    .addOption(recordFormatOption("table"))
    .addOption(jsonAliasOption());
}

function declareShow(keys: Command) {
  return keys
    .command("show")
    .description("a profile's key, masked; --reveal prints it whole on stdout (for a secret store)")
    .argument("<profile>")
    .option("--reveal", "print the whole key");
}

function declareTest(keys: Command) {
  return keys
    .command("test")
    .description("one cheap request with a profile's key (today's total views) and a verdict you can act on")
    .argument("[profile]", "default: the profile in use (--profile, ADREPORT_PROFILE, keys use)")
    .option("--base-url <url>", "the service (env ADREPORT_BASE_URL)")
    .option("--timeout <duration>", "per request (default 30s)")
    .option("--max-time <duration>", "give up after this long in all, exit 5 (default none)")
    .option("--all-profiles", "test every profile at once: one line each; exit 0 only when every key works")
    .addOption(new Option("--all", "the old name of --all-profiles").hideHelp())
    .addOption(recordFormatOption("text"))
    .addOption(jsonAliasOption());
}

function declareRequest(keys: Command) {
  return keys
    .command("request")
    .description("print the request to send to the operator: a new key, a rotation, or whitelist changes")
    .addArgument(new Argument("<type>", "new, rotate, add-ip or remove-ip").choices(REQUEST_TYPE_NAMES))
    .option("--account <name>", "the advertiser or account name the operator knows (default: the profile's account)")
    .option("--profile <name>", "the profile whose account setting the letter names (default: the profile in use)")
    .option("--all-profiles", "one request per profile, each naming its account setting (or one with --combined)")
    .option("--combined", "with --all-profiles: one request listing every account")
    .option(
      "--ip <address,...>",
      "static outgoing IPv4/IPv6 address (repeatable; required for add-ip and remove-ip)",
      collect,
    )
    .option("--reason <text>", "why (for example: key leaked on 2026-11-20)")
    .addOption(recordFormatOption("text"));
}

export type KeysAddOptions = OptionsOf<typeof declareAdd>;
export type KeysListOptions = OptionsOf<typeof declareList>;
export type KeysShowOptions = OptionsOf<typeof declareShow>;
export type KeysTestOptions = OptionsOf<typeof declareTest>;
export type KeysRequestOptions = OptionsOf<typeof declareRequest>;

export function registerKeys(program: Command, ctx: Context): void {
  const keys = program
    .command("keys")
    .description("manage API keys in profiles (one per advertiser account), test them, ask the operator for changes")
    .addHelpText(
      "after",
      `
Examples:
  $ adreport keys add acme                      # asks for the key without echoing it
  $ vault read -field=key secret/acme | adreport keys add acme --stdin
  $ adreport keys test acme
  $ adreport keys test --all-profiles           # after the office's static IP changed
  $ adreport keys request add-ip --all-profiles --combined --ip 203.0.113.7
  $ adreport keys request add-ip --account "Acme Outdoor" --ip 203.0.113.7

keys request names each profile's account setting, the name the service's operator knows (asked once on a
terminal and saved; or: adreport config set account "Acme Outdoor GmbH" --profile acme).`,
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
