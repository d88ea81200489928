/**
 * The settings a command's words give (flag > environment > profile > config file, config/resolve.ts), and
 * those words checked by their settings' own rules before anything of the export loads. `report` gives its
 * flags; `verify` gives a job's (verify/job-settings.ts).
 */
import type { Layers } from "../../config/resolve";
import { FLAG_SETTING_RULES } from "../../config/setting-rules";
import { UsageError } from "../../core/errors";

/** The words that name a setting, as `report`'s flags spell them. */
export interface SettingWords {
  baseUrl?: string | undefined;
  profile?: string | undefined;
  format?: string | undefined;
  pageSize?: string | undefined;
  concurrency?: string | undefined;
  timeout?: string | undefined;
  retries?: string | undefined;
  maxTime?: string | undefined;
  delimiter?: string | undefined;
  spreadsheet?: boolean | undefined;
  apiKey?: string | undefined;
  tz?: string | undefined;
  rate?: string | undefined;
}

/** The settings these words give, over the environment, the profile and the config file. */
export function settingFlags(words: SettingWords, profile = words.profile): Layers["flags"] {
  return {
    "base-url": words.baseUrl,
    profile,
    format: words.format,
    "page-size": words.pageSize,
    concurrency: words.concurrency,
    timeout: words.timeout,
    retries: words.retries,
    "max-time": words.maxTime,
    delimiter: words.delimiter,
    spreadsheet: words.spreadsheet,
    "api-key": words.apiKey,
    tz: words.tz,
    rate: words.rate,
  };
}

/** Throws what loading the settings would say of the first word its setting refuses. */
export function checkSettingFlags(words: SettingWords): void {
  const given: Record<string, unknown> = settingFlags(words);
  for (const [name, rule] of Object.entries(FLAG_SETTING_RULES)) {
    const text = given[name];
    if (typeof text !== "string") continue;
    const result = rule(text);
    if (!result.ok) throw new UsageError(`--${name}: ${result.message}`);
  }
}
