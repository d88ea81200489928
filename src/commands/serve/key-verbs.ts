/** `serve key ...` and `serve ip ...`: the verbs that manage API keys and their whitelists. */
import type { Command } from "@commander-js/extra-typings";
import type { Context } from "../context";
import { collect, integerOption } from "../shared/parse";
import { jsonAliasOption, recordFormatOption } from "../shared/records";
import { dbOption } from "./db-option";

export function registerKeyVerbs(serve: Command, ctx: Context): void {
  const key = serve.command("key").description("issue, rotate, revoke and list API keys");
  dbOption(
    key
      .command("issue")
      .description("issue a key for an advertiser; prints it once, on stdout")
      .requiredOption("--advertiser <name>", "the advertiser the key reads")
      .option("--ip <address,...>", "whitelisted IPv4/IPv6 address or CIDR range (repeatable)", collect)
      .option("--expires <date-time>", "expiry, ISO 8601 (a date means its end)")
      .option("--expires-in <days>", "expiry in whole days from now", integerOption(1, 36_500)),
    ctx,
  ).action(async (options) => (await import("./key-issue")).runKeyIssue(ctx, options));
  dbOption(
    key
      .command("rotate")
      .description("replace a key: same advertiser and whitelist; the old key stops now")
      .argument("<id>", "key id", integerOption(1)),
    ctx,
  ).action(async (id, options) => (await import("./key-rotate")).runKeyRotate(ctx, id, options));
  dbOption(key.command("revoke").description("revoke a key").argument("<id>", "key id", integerOption(1)), ctx).action(
    async (id, options) => (await import("./key-revoke")).runKeyRevoke(ctx, id, options),
  );
  dbOption(
    key
      .command("list")
      .description("list keys (never the keys themselves)")
      .addOption(recordFormatOption("table"))
      .addOption(jsonAliasOption()),
    ctx,
  ).action(async (options) => (await import("./key-list")).runKeyList(ctx, options));

  const ip = serve.command("ip").description("add or remove whitelisted IP addresses of a key");
  for (const action of ["add", "remove"] as const) {
    dbOption(
      ip
        .command(action)
        .description(action === "add" ? "whitelist addresses for a key" : "remove whitelisted addresses of a key")
        .argument("<id>", "key id", integerOption(1))
        .argument("<addresses...>"),
      ctx,
    ).action(async (id, addresses, options) => (await import("./ip")).runIp(ctx, action, id, addresses, options));
  }
}
