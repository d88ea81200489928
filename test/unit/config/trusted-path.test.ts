/** The StrictModes walk with an injected user: which folders above the config folder are trusted. */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTrustedFile, trustedFolder } from "../../../src/config/trusted-path";
import { tempDir } from "../../helpers/temp";

const uid = process.getuid?.() ?? 0;
const gid = process.getgid?.() ?? 0;

/** base/shared (mode given)/home/config, the config folder 0700. */
function layout(sharedMode: number) {
  const base = tempDir();
  const shared = join(base, "shared");
  const home = join(shared, "home");
  const config = join(home, "config");
  mkdirSync(config, { recursive: true, mode: 0o700 });
  chmodSync(shared, sharedMode);
  chmodSync(home, 0o755);
  return { shared, home, config };
}

describe.skipIf(process.getuid === undefined)("trustedFolder", () => {
  it("stops at the home folder, as ssh does: what is above it is not the user's to fix", () => {
    const { home, config } = layout(0o777);
    expect(trustedFolder(config, { uid, gid }, home, "/")).toBe(config);
    expect(() => trustedFolder(config, { uid, gid }, undefined, "/")).toThrow(
      /shared, a folder above it, is mode 0777/,
    );
  });

  it("allows a folder above that is writable by the user's own primary group only (per-user groups)", () => {
    const { config } = layout(0o775);
    expect(trustedFolder(config, { uid, gid }, undefined, "/")).toBe(config);
    expect(() => trustedFolder(config, { uid, gid: gid + 4242 }, undefined, "/")).toThrow(/is mode 0775/);
  });

  it("allows a sticky folder above that others can write (/tmp), refuses the config folder itself so", () => {
    const { shared, config } = layout(0o1777);
    expect(trustedFolder(config, { uid, gid }, undefined, "/")).toBe(config);
    expect(() => trustedFolder(shared, { uid, gid }, undefined, "/")).toThrow(/is mode 1777, writable by others/);
  });

  it("refuses a folder that belongs to someone else, before anything is read", () => {
    const { config } = layout(0o755);
    expect(() => trustedFolder(config, { uid: uid + 4242, gid }, undefined, "/")).toThrow(`belongs to uid ${uid}`);
  });

  it("is undefined for a folder that does not exist, and skips owner checks without a user (Windows)", () => {
    const { config } = layout(0o777);
    expect(trustedFolder(join(config, "nope"), { uid, gid }, undefined, "/")).toBeUndefined();
    expect(trustedFolder(config, undefined, undefined, "/")).toBe(config);
  });
});

describe("readTrustedFile", () => {
  it("reads the user's own file and its mode; undefined when there is none", () => {
    const { config } = layout(0o755);
    const path = join(config, "config.json");
    expect(readTrustedFile(path, { uid, gid })).toBeUndefined();
    writeFileSync(path, "{}", { mode: 0o640 });
    chmodSync(path, 0o640);
    expect(readTrustedFile(path, { uid, gid })).toEqual({ text: "{}", mode: expect.any(Number) });
    expect((readTrustedFile(path, { uid, gid })?.mode ?? 0) & 0o777).toBe(0o640);
  });
});
