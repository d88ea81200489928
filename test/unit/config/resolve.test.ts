/** Where each setting comes from, as a table: flag > environment > profile > config file > default. */
import { describe, expect, it } from "vitest";
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
