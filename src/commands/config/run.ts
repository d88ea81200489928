/** The behaviour of `adreport config`. */
import { profileNamed } from "../../config/profiles";
import { checkSetting, isSettingName, SETTING_NAMES, SETTINGS, type SettingName } from "../../config/settings";
import { UsageError } from "../../core/errors";
import { maskKey } from "../../core/mask-key";
import type { Context } from "../context";
import { recordFormat, recordsText } from "../shared/records";
import { rowsForPeople } from "../shared/rows-for-people";
import { configFile, loadSettings, readConfig } from "../shared/settings";
import type { ConfigGetOptions, ConfigListOptions, ConfigSetOptions, ConfigUnsetOptions } from "./flags";

function settingName(key: string): SettingName {
  if (!isSettingName(key)) {
    throw new UsageError(`unknown setting ${JSON.stringify(key)}; the settings are: ${SETTING_NAMES.join(", ")}`, {
      hint: key === "api-key" ? "keys live in profiles: adreport keys add <profile>" : undefined,
    });
  }
  return key;
}

function shown(name: string, value: unknown): string {
  if (value === undefined) return "";
  if (name === "delimiter" && value === "\t") return "tab";
  if (name === "timeout" && typeof value === "number") return `${value}s`;
  return String(value);
}

export async function runConfigGet(ctx: Context, key: string, options: ConfigGetOptions): Promise<void> {
  const name = settingName(key);
  const settings = await loadSettings(ctx, { profile: options.profile });
  ctx.io.out.write(`${shown(name, settings[name].value)}\n`);
}

export async function runConfigSet(ctx: Context, key: string, value: string, options: ConfigSetOptions): Promise<void> {
  const name = settingName(key);
  const checked = checkSetting(name, value);
  if (!checked.ok) throw new UsageError(`${name}: ${checked.message}`, { hint: SETTINGS[name].help });
  if (name === "account" && options.profile === undefined) {
    throw new UsageError("account is a profile's own: the operator knows each account by its name", {
      hint: `adreport config set account ${JSON.stringify(checked.value)} --profile <profile>`,
    });
  }
  const { file, data } = await readConfig(ctx);
  if (name === "profile") profileNamed(data, String(checked.value));
  if (options.profile !== undefined) {
    if (name === "profile") throw new UsageError("the default profile is not a setting of a profile");
    profileNamed(data, options.profile)[name] = checked.value;
  } else {
    data.settings[name] = checked.value;
  }
  await file.write(data);
  ctx.io.err.write(
    `adreport: ${name} = ${shown(name, checked.value)}${options.profile ? ` in profile ${options.profile}` : ""}\n`,
  );
}

export async function runConfigUnset(ctx: Context, key: string, options: ConfigUnsetOptions): Promise<void> {
  const name = settingName(key);
  const { file, data } = await readConfig(ctx);
  if (options.profile !== undefined) delete profileNamed(data, options.profile)[name];
  else delete data.settings[name];
  await file.write(data);
  ctx.io.err.write(`adreport: ${name} unset${options.profile ? ` in profile ${options.profile}` : ""}\n`);
}

export async function runConfigList(ctx: Context, options: ConfigListOptions): Promise<void> {
  const format = recordFormat(ctx, options);
  const settings = await loadSettings(ctx, { profile: options.profile, "base-url": options.baseUrl });
  const rows = [
    ...SETTING_NAMES.map((name) => ({
      setting: name,
      value: shown(name, settings[name].value),
      source: settings[name].source,
    })),
    { setting: "api-key", value: maskKey(settings["api-key"].value), source: settings["api-key"].source },
  ];
  if (format !== "human") {
    ctx.io.out.write(recordsText(format, rows));
    return;
  }
  const cells = rows.map((row) => [row.setting, row.value, row.source]);
  ctx.io.out.write(await rowsForPeople(ctx, ["setting", "value", "from"], cells, (cell) => cell || "(none)"));
}

export async function runConfigPath(ctx: Context): Promise<void> {
  ctx.io.out.write(`${configFile(ctx).path}\n`);
}
