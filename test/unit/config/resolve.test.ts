/** Where each setting comes from, as a table: flag > environment > profile > config file > default. */
import { describe, expect, it } from "vitest";
import type { ReportFlags } from "../../../src/commands/report/flags";
import { checkSettingFlags } from "../../../src/commands/shared/setting-flags";
import type { ConfigData } from "../../../src/config/file";
import { profileNamed } from "../../../src/config/profiles";
import { type Layers, requireApiKey, resolveSettings } from "../../../src/config/resolve";
import { AuthError, UsageError } from "../../../src/core/errors";

const FILE: ConfigData = {
  settings: { profile: "acme", "base-url": "https://file.example", "page-size": 200, format: "json" },
  profiles: {
    acme: { "api-key": "adr_profile_acme_key_0000", "base-url": "https://acme.example", "page-size": 300 },
    globex: { "api-key": "adr_profile_globex_key_00" },
  },
};

function layers(overrides: Partial<Layers> = {}): Layers {
  return { flags: {}, env: {}, file: FILE, filePath: "/cfg/config.json", ...overrides };
}

describe("resolveSettings", () => {
  it.each([
    [
      "flag beats everything",
      { flags: { "base-url": "https://flag.example" }, env: { ADREPORT_BASE_URL: "https://env.example" } },
      "base-url",
      "https://flag.example",
      "flag",
    ],
    [
      "environment beats profile",
      { env: { ADREPORT_BASE_URL: "https://env.example" } },
      "base-url",
      "https://env.example",
      "environment",
    ],
    ["profile beats config file", {}, "base-url", "https://acme.example", "profile"],
    [
      "config file when the profile has none",
      { env: { ADREPORT_PROFILE: "globex" } },
      "base-url",
      "https://file.example",
      "config file",
    ],
    ["default when nobody says", {}, "retries", 4, "default"],
    ["a profile's own default", {}, "page-size", 300, "profile"],
    ["the file's default for another profile", { flags: { profile: "globex" } }, "page-size", 200, "config file"],
    ["flag for a number", { flags: { "page-size": "50" } }, "page-size", 50, "flag"],
    ["timeout words", { flags: { timeout: "500ms" } }, "timeout", 0.5, "flag"],
    ["the default profile from the file", {}, "profile", "acme", "config file"],
    ["profile from the environment", { env: { ADREPORT_PROFILE: "globex" } }, "profile", "globex", "environment"],
    [
      "profile from a flag",
      { flags: { profile: "globex" }, env: { ADREPORT_PROFILE: "acme" } },
      "profile",
      "globex",
      "flag",
    ],
    [
      "key from the environment beats the profile's",
      { env: { ADREPORT_API_KEY: "adr_env" } },
      "api-key",
      "adr_env",
      "environment",
    ],
    ["key from the profile", {}, "api-key", "adr_profile_acme_key_0000", "profile"],
    ["key of another profile", { flags: { profile: "globex" } }, "api-key", "adr_profile_globex_key_00", "profile"],
    [
      "key from a flag",
      { flags: { "api-key": "adr_flag" }, env: { ADREPORT_API_KEY: "adr_env" } },
      "api-key",
      "adr_flag",
      "flag",
    ],
    [
      "empty environment values do not count",
      { env: { ADREPORT_BASE_URL: "", ADREPORT_API_KEY: "" } },
      "base-url",
      "https://acme.example",
      "profile",
    ],
  ] as const)("%s", (_label, overrides, name, value, source) => {
    const settings = resolveSettings(layers(overrides as Partial<Layers>));
    expect(settings[name as keyof typeof settings]).toEqual({ value, source });
  });

  it("names where a bad value came from", () => {
    expect(() => resolveSettings(layers({ flags: { "page-size": "0" } }))).toThrow(
      "--page-size: expected a whole number",
    );
    expect(() => resolveSettings(layers({ env: { ADREPORT_BASE_URL: "ftp://x" } }))).toThrow(
      "ADREPORT_BASE_URL: expected an http(s) URL",
    );
    const bad: ConfigData = { settings: { retries: "many" }, profiles: {} };
    expect(() => resolveSettings(layers({ file: bad }))).toThrow("/cfg/config.json: retries: expected a whole number");
  });

  it("refuses a profile that does not exist, naming the known ones", () => {
    const error = (() => {
      try {
        resolveSettings(layers({ flags: { profile: "nope" } }));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('no profile named "nope" (from flag); known: acme, globex');
  });

  it("says it in the words of a profile named as an argument, less the source", () => {
    const none: ConfigData = { settings: {}, profiles: {} };
    expect(() => resolveSettings(layers({ file: none, env: { ADREPORT_PROFILE: "acme" } }))).toThrow(
      'no profile named "acme" (from environment); none is set up yet',
    );
    expect(() => profileNamed(none, "acme")).toThrow('no profile named "acme"; none is set up yet');
    expect(() => profileNamed(FILE, "nope")).toThrow('no profile named "nope"; known: acme, globex');
  });

  it("asks for a key when there is none, with exit 3", () => {
    const settings = resolveSettings(layers({ file: { settings: {}, profiles: {} } }));
    expect(() => requireApiKey(settings)).toThrow(AuthError);
  });
});

describe("whose key is sent, and where (config/credentials.ts)", () => {
  const ENV_KEY = "adr_environment_key_000000";
  const resolved = (overrides: Partial<Layers>) => {
    const settings = resolveSettings(layers(overrides));
    return {
      profile: settings.profile.value,
      key: settings["api-key"],
      baseUrl: settings["base-url"],
      pageSize: settings["page-size"].value,
      unused: settings.unused,
    };
  };

  it.each([
    ["--profile", { flags: { profile: "globex" }, env: { ADREPORT_API_KEY: ENV_KEY } }, "--profile"],
    ["ADREPORT_PROFILE", { env: { ADREPORT_PROFILE: "globex", ADREPORT_API_KEY: ENV_KEY } }, "ADREPORT_PROFILE"],
  ] as const)("a profile named by %s sends its own key, never ADREPORT_API_KEY, and says so", (_by, overrides, by) => {
    expect(resolved(overrides as Partial<Layers>)).toMatchObject({
      profile: "globex",
      key: { value: "adr_profile_globex_key_00", source: "profile" },
      unused: [`ADREPORT_API_KEY is not used: profile globex (named by ${by}) uses its own key`],
    });
  });

  it("a named profile without a key is 'no API key' (exit 3), not the environment's key", () => {
    const file: ConfigData = { settings: {}, profiles: { bare: { "base-url": "https://bare.example" } } };
    const settings = resolveSettings(layers({ file, flags: { profile: "bare" }, env: { ADREPORT_API_KEY: ENV_KEY } }));
    expect(settings["api-key"].value).toBeUndefined();
    expect(() => requireApiKey(settings)).toThrow("no API key: profile bare has none");
  });

  it("ADREPORT_API_KEY without a named profile belongs to no profile: the default profile is set aside", () => {
    expect(resolved({ env: { ADREPORT_API_KEY: ENV_KEY } })).toEqual({
      profile: undefined,
      key: { value: ENV_KEY, source: "environment" },
      baseUrl: { value: "https://file.example", source: "config file" },
      pageSize: 200,
      unused: [
        "the default profile acme is not used: the key in ADREPORT_API_KEY belongs to no profile (--profile acme uses acme's own key)",
      ],
    });
  });

  it("ADREPORT_API_KEY with no profile at all: used, nothing to say", () => {
    const none: ConfigData = { settings: {}, profiles: {} };
    expect(resolved({ file: none, env: { ADREPORT_API_KEY: ENV_KEY } })).toMatchObject({
      profile: undefined,
      key: { value: ENV_KEY, source: "environment" },
      unused: [],
    });
  });

  it("--api-key wins over everything and belongs to no profile either", () => {
    expect(resolved({ flags: { "api-key": "adr_flag" }, env: { ADREPORT_API_KEY: ENV_KEY } })).toMatchObject({
      profile: undefined,
      key: { value: "adr_flag", source: "flag" },
      unused: [
        "the default profile acme is not used: the key given with --api-key belongs to no profile",
        "ADREPORT_API_KEY is not used: the key given with --api-key wins",
      ],
    });
    expect(resolved({ flags: { "api-key": "adr_flag" }, env: { ADREPORT_PROFILE: "globex" } })).toMatchObject({
      profile: undefined,
      key: { value: "adr_flag", source: "flag" },
      unused: ["ADREPORT_PROFILE (globex) is not used: the key given with --api-key belongs to no profile"],
    });
    expect(() => resolveSettings(layers({ flags: { "api-key": "adr_flag", profile: "globex" } }))).toThrow(
      "--api-key and --profile cannot be combined: a profile has its own key",
    );
  });

  it("a named profile with its own base-url is sent there, not to ADREPORT_BASE_URL; --base-url still wins", () => {
    const env = { ADREPORT_BASE_URL: "https://env.example" };
    expect(resolved({ flags: { profile: "acme" }, env })).toMatchObject({
      baseUrl: { value: "https://acme.example", source: "profile" },
      unused: ["ADREPORT_BASE_URL is not used: profile acme (named by --profile) uses its own base-url"],
    });
    expect(resolved({ env: { ...env, ADREPORT_PROFILE: "acme" } })).toMatchObject({
      baseUrl: { value: "https://acme.example", source: "profile" },
    });
    expect(resolved({ flags: { profile: "acme", "base-url": "https://flag.example" }, env })).toMatchObject({
      baseUrl: { value: "https://flag.example", source: "flag" },
      unused: [],
    });
    // Without an address of its own, the environment's; the default profile, not named, as the contract says.
    expect(resolved({ flags: { profile: "globex" }, env }).baseUrl).toEqual({
      value: env.ADREPORT_BASE_URL,
      source: "environment",
    });
    expect(resolved({ env }).baseUrl).toEqual({ value: env.ADREPORT_BASE_URL, source: "environment" });
    expect(
      resolved({ flags: { profile: "acme" }, env: { ADREPORT_BASE_URL: "https://acme.example/" } }).unused,
    ).toEqual([]);
    // The same service written with another case and its default port is not "another address".
    expect(
      resolved({ flags: { profile: "acme" }, env: { ADREPORT_BASE_URL: "HTTPS://Acme.Example:443/" } }).unused,
    ).toEqual([]);
  });

  it("refuses a key with control characters from the environment without showing it", () => {
    const none: ConfigData = { settings: {}, profiles: {} };
    const settings = resolveSettings(layers({ file: none, env: { ADREPORT_API_KEY: "adr_\u001b[31mred" } }));
    expect(() => requireApiKey(settings)).toThrow(
      "the key in ADREPORT_API_KEY: the key contains control or invisible characters (not shown); paste the key as plain text",
    );
  });
});

describe("a setting's flag checked before the settings load (report's front)", () => {
  const BAD: Record<string, string[]> = {
    "page-size": ["0", "10001", "x", " ", "1.5"],
    concurrency: ["0", "33", "-1"],
    timeout: ["0s", "5x", "2h", ""],
    retries: ["11", "-1", "three"],
    "max-time": ["0", "8d", "soon"],
    rate: ["fast", "2000/s", "10/h"],
    tz: ["Mars/Base", "+01:00", ""],
  };
  const flagOf = (name: string) => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

  it.each(Object.entries(BAD).flatMap(([name, words]) => words.map((word) => [name, word] as const)))(
    "--%s %j: the words loading the settings says",
    (name, word) => {
      let loading: unknown;
      try {
        resolveSettings(layers({ flags: { [name]: word } }));
      } catch (error) {
        loading = error;
      }
      expect(loading).toBeInstanceOf(UsageError);
      expect(() => checkSettingFlags({ [flagOf(name)]: word } as unknown as ReportFlags)).toThrow(
        new UsageError((loading as Error).message),
      );
    },
  );

  it("takes what the settings take", () => {
    const good = {
      pageSize: "500",
      concurrency: "32",
      timeout: "500ms",
      retries: "0",
      maxTime: "10m",
      rate: "120/min",
    };
    expect(() => checkSettingFlags({ ...good, tz: "Europe/Berlin" } as unknown as ReportFlags)).not.toThrow();
  });
});
