/** The behaviour of `adreport keys`. Keys reach stdout only through `keys show --reveal`. */
import { checkKeyText, checkProfileName, profileNamed } from "../../config/profiles";
import { UsageError } from "../../core/errors";
import { tagLine, writesJsonLogs } from "../../core/log-codes";
import { maskKey } from "../../core/mask-key";
import { quote } from "../../core/quote";
import { readAll, readHidden } from "../../io/input";
import type { Context } from "../context";
import { recordFormat, recordsText } from "../shared/records";
import { readConfig, warnUnused } from "../shared/settings";
import type { KeysAddOptions, KeysListOptions, KeysRequestOptions, KeysShowOptions, KeysTestOptions } from "./flags";
import { testKey } from "./key-test";
import { requestIps } from "./request-ips";
import { type RequestType, requestRecord, requestText } from "./request-text";

export async function runKeysAdd(ctx: Context, profileName: string, options: KeysAddOptions): Promise<void> {
  const name = checkProfileName(profileName);
  const { file, data } = await readConfig(ctx);
  const baseUrl = options.baseUrl === undefined ? undefined : await checkedFlag("base-url", options.baseUrl);
  const account = options.account === undefined ? undefined : await checkedFlag("account", options.account);
  const fromStdin = options.stdin === true || !ctx.io.inIsTTY;
  const raw = fromStdin
    ? await readAll(ctx.io.in)
    : await askKey(ctx, `API key for profile ${name} (input is hidden): `);
  const key = checkKeyText(raw);
  const existed = Object.hasOwn(data.profiles, name);
  const profile = {
    ...(data.profiles[name] ?? {}),
    "api-key": key,
    ...(baseUrl ? { "base-url": baseUrl } : {}),
    ...(account ? { account } : {}),
  };
  data.profiles[name] = profile;
  const makeDefault = options.default === true || data.settings.profile === undefined;
  if (makeDefault) data.settings.profile = name;
  await file.write(data);
  ctx.io.err.write(
    `adreport: ${existed ? "replaced the key of" : "added"} profile ${name} (${maskKey(key)})${account ? ` for the account ${quote(account)}` : ""}${makeDefault ? ", the default" : ""}; stored in ${file.path} (mode 0600)\n`,
  );
}

/** A flag's value checked by its setting's rule, or exit 2 naming the flag. */
async function checkedFlag<K extends "base-url" | "account">(name: K, value: string) {
  const { checkSetting } = await import("../../config/settings");
  const checked = checkSetting(name, value);
  if (!checked.ok) throw new UsageError(`--${name}: ${checked.message}`);
  return checked.value;
}

export async function runKeysList(ctx: Context, options: KeysListOptions): Promise<void> {
  const format = recordFormat(ctx, options);
  const data = (await readConfig(ctx)).data;
  const rows = Object.entries(data.profiles)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, profile]) => ({
      profile: name,
      key: maskKey(profile["api-key"]),
      base_url: typeof profile["base-url"] === "string" ? profile["base-url"] : "",
      account: typeof profile.account === "string" ? profile.account : null,
      default: data.settings.profile === name,
    }));
  if (format !== "human") {
    ctx.io.out.write(recordsText(format, rows));
    return;
  }
  if (rows.length === 0) {
    ctx.io.err.write("adreport: no profiles yet; add one with: adreport keys add <profile>\n");
    return;
  }
  const { default: Table } = await import("cli-table3");
  const head = ["", "profile", "key", "base URL", "account"];
  const table = new Table({ head, style: { head: [], border: [] } });
  for (const row of rows) {
    table.push([row.default ? "*" : "", row.profile, row.key, row.base_url || "(default)", row.account ?? "(not set)"]);
  }
  ctx.io.out.write(`${table.toString()}\n`);
}

export async function runKeysRemove(ctx: Context, profileName: string): Promise<void> {
  const { file, data } = await readConfig(ctx);
  profileNamed(data, profileName);
  delete data.profiles[profileName];
  const wasDefault = data.settings.profile === profileName;
  if (wasDefault) delete data.settings.profile;
  await file.write(data);
  ctx.io.err.write(
    `adreport: removed profile ${profileName}${wasDefault ? "; there is no default profile now (adreport keys use <profile>)" : ""}\n`,
  );
}

export async function runKeysUse(ctx: Context, profileName: string): Promise<void> {
  const { file, data } = await readConfig(ctx);
  profileNamed(data, profileName);
  data.settings.profile = profileName;
  await file.write(data);
  ctx.io.err.write(`adreport: profile ${profileName} is the default now\n`);
}

export async function runKeysShow(ctx: Context, profileName: string, options: KeysShowOptions): Promise<void> {
  const data = (await readConfig(ctx)).data;
  const key = profileNamed(data, profileName)["api-key"];
  if (key === undefined)
    throw new UsageError(`profile ${profileName} has no key; add one with: adreport keys add ${profileName}`);
  ctx.io.out.write(`${options.reveal ? key : maskKey(key)}\n`);
}

export async function runKeysTest(
  ctx: Context,
  profileName: string | undefined,
  options: KeysTestOptions,
): Promise<void> {
  if (options.all === true) ctx.io.err.write("adreport: note: --all is now --all-profiles\n");
  if (options.all === true || options.allProfiles === true) {
    return (await import("./test-all")).runKeysTestAll(ctx, profileName, options);
  }
  const format = recordFormat(ctx, options);
  if (format !== "human") return (await import("./test-all")).runKeysTestOne(ctx, profileName, options, format);
  const { who, baseUrl } = await testKey(ctx, profileName, options);
  ctx.io.out.write(`ok: ${who} works from this host (${baseUrl} answered a report request)\n`);
}

export async function runKeysRequest(ctx: Context, type: RequestType, options: KeysRequestOptions): Promise<void> {
  if (options.allProfiles === true) return (await import("./request-all")).runKeysRequestAll(ctx, type, options);
  if (options.combined === true) throw new UsageError("--combined goes with --all-profiles");
  const ips = requestIps(type, options);
  const request = { type, account: await requestAccount(ctx, options), ips, reason: options.reason };
  const format = recordFormat(ctx, options);
  ctx.io.out.write(format === "human" ? requestText(request) : recordsText(format, [requestRecord(request)], true));
}

/** --account, else the account of the profile in use (--profile, ADREPORT_PROFILE, keys use). */
async function requestAccount(ctx: Context, options: KeysRequestOptions): Promise<string> {
  const given = (options.account ?? "").trim();
  if (given !== "") return checkedFlag("account", given);
  const config = await readConfig(ctx);
  const { resolveSettings } = await import("../../config/resolve");
  const layers = { flags: { profile: options.profile }, env: ctx.env, file: config.data, filePath: config.file.path };
  const settings = resolveSettings(layers);
  // A key from ADREPORT_API_KEY belongs to no profile: the default profile's account is not its account.
  warnUnused(ctx, settings);
  const profile = settings.profile.value;
  if (options.account !== undefined || profile === undefined) {
    throw new UsageError("--account: give the advertiser or account name the operator knows", {
      hint: "or name the profile whose account it is (--profile, adreport keys list), or --all-profiles for one request per profile",
    });
  }
  const { accountsOf } = await import("./request-account");
  return (await accountsOf(ctx, [profile], config))[0] as string;
}

/**
 * JSON logs keep a line until its line feed, and a prompt has none: the prompt is said as a record once
 * the terminal no longer echoes (at the prompt's first drawing, which itself goes nowhere).
 */
async function askKey(ctx: Context, prompt: string): Promise<string> {
  if (!writesJsonLogs(ctx.io.err)) return readHidden(ctx.io, prompt);
  const { Writable } = await import("node:stream");
  let said = false;
  const drawing = new Writable({
    write: (_chunk, _encoding, done) => {
      if (!said) {
        said = true;
        tagLine(ctx.io.err, { code: "note" });
        ctx.io.err.write(`${prompt.trimEnd()}\n`);
      }
      done();
    },
  });
  return readHidden(ctx.io, prompt, drawing);
}
