/** Where each setting comes from, as a table: flag > environment > profile > config file > default. */
import { describe, expect, it } from "vitest";
import type { ReportFlags } from "../../../src/commands/report/flags";
import { checkSettingFlags } from "../../../src/commands/report/setting-flags";
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
