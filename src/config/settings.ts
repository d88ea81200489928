/**
 * The settings a user can keep in the config file, a profile, the environment or a flag, each declared
 * once: its rule (zod, around setting-rules.ts for the settings a flag's word is checked by early), its
 * environment variable if any, its default and what it means.
 */
import * as z from "zod";
import { parseBaseUrl } from "../contract/endpoint";
import { FORMAT_NAMES } from "../core/formats";
import {
  type CheckResult,
  CONCURRENCY_RULE,
  MAX_TIME_RULE,
  maxLagRule,
  PAGE_SIZE_RULE,
  RETRIES_RULE,
  rateRule,
  TIMEOUT_RULE,
  wholeNumberRule,
  zoneRule,
} from "./setting-rules";

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A rule of setting-rules.ts on what `input` reads, its refusal as the issue. */
function ruled<I, T>(input: z.ZodType<I>, rule: (value: I) => CheckResult<T>) {
  return input.transform((value, ctx) => {
    const result = rule(value);
    if (result.ok) return result.value;
    ctx.addIssue({ code: "custom", message: result.message });
    return z.NEVER;
  });
}

/** A duration as the settings take it: a number of seconds, or a text such as `30s` (core/duration.ts). */
const durationInput = z.union([z.number(), z.string()]);

const proxyUrl = z.string().refine((text) => {
  if (text === "direct") return true;
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}, "expected a proxy URL such as http://proxy.example.com:3128, or `direct` for none");

const httpUrl = z
  .string()
  .refine((text) => parseBaseUrl(text).ok, {
    // A user name or password is refused for what it is (never shown), not as a URL that is not http(s).
    error: (issue) => {
      const parsed = typeof issue.input === "string" ? parseBaseUrl(issue.input) : undefined;
      return parsed !== undefined && !parsed.ok && parsed.problem === "has-credentials"
        ? "a base URL carries no user name or password (the key travels in a header)"
        : "expected an http(s) URL such as https://reports.example.com";
    },
  })
  .transform((text) => text.replace(/\/+$/, ""));

export const SETTINGS = {
  "base-url": {
    schema: httpUrl,
    env: "ADREPORT_BASE_URL",
    default: "http://127.0.0.1:8080",
    help: "the reporting service's address (default: a local `adreport serve`)",
  },
  profile: {
    schema: z.string().regex(PROFILE_NAME, "expected a profile name: letters, digits, '.', '_' or '-'"),
    env: "ADREPORT_PROFILE",
    default: undefined,
    help: "the profile (API key) used when none is named",
  },
  format: {
    schema: z.enum(FORMAT_NAMES, { error: `expected one of ${FORMAT_NAMES.join(", ")}` }),
    env: undefined,
    default: undefined,
    help: "output format when stdout is not a terminal and --output has no telling ending (default csv)",
  },
  "page-size": {
    schema: ruled(z.unknown(), PAGE_SIZE_RULE),
    env: undefined,
    default: 1000,
    help: "rows asked for per page; the service may apply less",
  },
  concurrency: {
    schema: ruled(z.unknown(), CONCURRENCY_RULE),
    env: undefined,
    default: 4,
    help: "pages fetched at once",
  },
  timeout: {
    schema: ruled(durationInput, TIMEOUT_RULE),
    env: undefined,
    default: 30,
    help: "seconds to wait for one answer (30s, 500ms, 2m)",
  },
  retries: {
    schema: ruled(z.unknown(), RETRIES_RULE),
    env: undefined,
    default: 4,
    help: "retries after a network failure, 429 or 5xx",
  },
  "max-time": {
    schema: ruled(durationInput, MAX_TIME_RULE),
    env: undefined,
    default: undefined,
    help: "give up on the whole export after this long, with exit 5 (10m, 1h; default: no limit)",
  },
  "max-page-mb": {
    schema: ruled(z.unknown(), wholeNumberRule(1, 4096)),
    env: undefined,
    default: 64,
    help: "the most megabytes one answer of the service may have; a larger one fails the export",
  },
  rate: {
    schema: ruled(z.string(), rateRule),
    env: undefined,
    default: undefined,
    help: "the most requests sent to the service, per second or minute (10/s, 120/min; default: the service's own pace)",
  },
  proxy: {
    schema: proxyUrl,
    env: undefined,
    default: undefined,
    help: "the HTTP proxy to the service (default: HTTPS_PROXY / HTTP_PROXY, NO_PROXY); `direct` for none",
  },
  delimiter: {
    schema: z
      .string()
      .transform((v) => (v === "tab" || v === "\\t" ? "\t" : v))
      .refine((v) => [...v].length === 1 && v !== '"' && v !== "\n" && v !== "\r", "expected one character, or `tab`"),
    env: undefined,
    default: ",",
    help: "CSV field delimiter (`tab` for a tab; `--format tsv` for TSV readers)",
  },
  spreadsheet: {
    schema: z
      .union([z.boolean(), z.enum(["true", "false"])], { error: "expected true or false" })
      .transform((v) => v === true || v === "true"),
    env: undefined,
    default: false,
    help: "CSV files (-o FILE) for spreadsheet programs: byte-order mark, CRLF, cells that would run as formulas prefixed with '; CSV on stdout or into a named pipe stays plain (--spreadsheet shapes it there too)",
  },
  tz: {
    schema: ruled(z.string(), zoneRule),
    env: "ADREPORT_TZ",
    default: undefined,
    help: "the time zone of report days and dates (Europe/Berlin; default UTC); days are built from hourly data",
  },
  "max-lag": {
    schema: ruled(z.unknown(), maxLagRule),
    env: undefined,
    default: undefined,
    help: "adreport status: how many days a job's newest day may lag behind yesterday before it exits 8 (2d; a profile's own for its jobs; default: no alert)",
  },
  account: {
    schema: z
      .string()
      .trim()
      .min(1, "expected the advertiser or account name the service's operator knows")
      .max(200, "expected at most 200 characters")
      .refine((name) => !/\p{Cc}/u.test(name), "expected one line of text, without control characters"),
    env: undefined,
    default: undefined,
    help: "a profile's advertiser or account name as the service's operator knows it; keys request writes it in letters",
  },
} as const;

export type SettingName = keyof typeof SETTINGS;
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];
export type SettingValue<K extends SettingName> = z.output<(typeof SETTINGS)[K]["schema"]>;

/** Settings a profile may carry besides its key (its own defaults). */
export const PROFILE_SETTING_NAMES = SETTING_NAMES.filter((name) => name !== "profile");

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTINGS, name);
}

export type { CheckResult };

export function checkSetting<K extends SettingName>(name: K, value: unknown): CheckResult<SettingValue<K>> {
  const result = SETTINGS[name].schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data as SettingValue<K> };
  return { ok: false, message: result.error.issues[0]?.message ?? "invalid value" };
}
