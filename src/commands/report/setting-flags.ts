/**
 * The settings `report`'s flags give (flag > environment > profile > config file, config/resolve.ts), and
 * the words of those flags checked by their settings' own rules before anything of the export loads.
 */
import { FLAG_SETTING_RULES } from "../../config/setting-rules";
import { UsageError } from "../../core/errors";
import type { ReportFlags } from "./flags";

/** The settings a report's flags give, over the environment, the profile and the config file. */
export function reportSettingFlags(flags: ReportFlags, profile = flags.profile) {
  return {
    "base-url": flags.baseUrl,
    profile,
    format: flags.format,
    "page-size": flags.pageSize,
    concurrency: flags.concurrency,
    timeout: flags.timeout,
    retries: flags.retries,
    "max-time": flags.maxTime,
    delimiter: flags.delimiter,
    spreadsheet: flags.spreadsheet,
    "api-key": flags.apiKey,
    tz: flags.tz,
    rate: flags.rate,
  };
}

/** Throws what loading the settings would say of the first flag whose word its setting refuses. */
export function checkSettingFlags(flags: ReportFlags): void {
  const given: Record<string, unknown> = reportSettingFlags(flags);
  for (const [name, rule] of Object.entries(FLAG_SETTING_RULES)) {
    const text = given[name];
    if (typeof text !== "string") continue;
    const result = rule(text);
    if (!result.ok) throw new UsageError(`--${name}: ${result.message}`);
  }
}
