/** The flags and arguments of `adreport keys`'s subcommands, and the options types their runs take. */
import { Argument, type Command, Option } from "@commander-js/extra-typings";
import type { OptionsOf } from "../shared/declared";
import { collect } from "../shared/parse";
import { jsonAliasOption, recordFormatOption } from "../shared/records";
import { REQUEST_TYPE_NAMES } from "./request-text";

export function declareAdd(keys: Command) {
  return keys
    .command("add")
    .description("store a key in a profile: from a hidden prompt on a terminal, or from stdin; never from argv")
    .argument("<profile>", "a name for the account, e.g. acme")
    .option("--stdin", "read the key from stdin (the default when stdin is not a terminal)")
    .option("--base-url <url>", "this profile's service address")
    .option(
      "--account <name>",
      "the advertiser or account name the service's operator knows, which keys request's letters name",
    )
    .option("--default", "make it the default profile (the first profile becomes it anyway)");
}

export function declareList(keys: Command) {
  return keys
    .command("list")
    .description("profiles with their masked keys, base URLs, accounts, and which is the default")
    .addOption(recordFormatOption("table"))
    .addOption(jsonAliasOption());
}

export function declareShow(keys: Command) {
  return keys
    .command("show")
    .description("a profile's key, masked; --reveal prints it whole on stdout (for a secret store)")
    .argument("<profile>")
    .option("--reveal", "print the whole key");
}

export function declareTest(keys: Command) {
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

export function declareRequest(keys: Command) {
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
