/** The config file's place: a relative config folder from the environment is the command's folder's. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigFile } from "../../../src/config/file";
import { tempDir } from "../../helpers/temp";

const user = process.getuid && process.getgid ? { uid: process.getuid(), gid: process.getgid() } : undefined;

describe("ConfigFile", () => {
  it("finds a relative ADREPORT_CONFIG_DIR in the command's folder, and names it as given", async () => {
    const cwd = tempDir();
    const file = ConfigFile.of({ ADREPORT_CONFIG_DIR: "cfg", HOME: cwd }, user, cwd);
    expect(file.path).toBe(join("cfg", "config.json"));
    await file.write({ settings: { retries: 3 }, profiles: {} });
    expect(JSON.parse(readFileSync(join(cwd, "cfg", "config.json"), "utf8"))).toEqual({
      settings: { retries: 3 },
      profiles: {},
    });
    expect(existsSync(join(process.cwd(), "cfg"))).toBe(false);
    const again = ConfigFile.of({ ADREPORT_CONFIG_DIR: "cfg", HOME: cwd }, user, cwd);
    expect(await again.read()).toEqual({ settings: { retries: 3 }, profiles: {} });
  });

  it("so does a relative XDG_CONFIG_HOME", () => {
    const cwd = tempDir();
    const file = ConfigFile.of({ XDG_CONFIG_HOME: "xdg", HOME: "/nowhere" }, user, cwd);
    expect(file.path).toBe(join("xdg", "adreport", "config.json"));
  });
});
