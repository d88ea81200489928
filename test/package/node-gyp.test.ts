/**
 * `npm run package` compiles better-sqlite3 with npm's own node-gyp, found the way npm finds it. It looked
 * under `npm root -g`, which follows npm's global prefix: with the prefix moved (npm config set prefix
 * ~/.npm-global, npm's advice for EACCES) it died with a stack trace, "node-gyp not found beside npm".
 * Here on npm installs laid out in temporary folders (as Debian, nvm and a tarball lay them out: the CLI at
 * lib/node_modules/npm/bin/npm-cli.js, linked from bin/npm), and on this machine's own npm with the prefix
 * moved.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BuildSetupError, findNodeGyp } from "../../scripts/node-gyp.mjs";
import { tempDir } from "../helpers/temp";

const ROOT = join(import.meta.dirname, "..", "..");

/** An npm installed under `prefix` with its own node-gyp; returns its paths. */
function npmInstall(prefix: string) {
  const npm = join(prefix, "lib", "node_modules", "npm");
  const gyp = join(npm, "node_modules", "node-gyp", "bin", "node-gyp.js");
  mkdirSync(join(npm, "bin"), { recursive: true });
  mkdirSync(join(gyp, ".."), { recursive: true });
  writeFileSync(join(npm, "bin", "npm-cli.js"), "");
  writeFileSync(gyp, "");
  mkdirSync(join(prefix, "bin"), { recursive: true });
  symlinkSync(join("..", "lib", "node_modules", "npm", "bin", "npm-cli.js"), join(prefix, "bin", "npm"));
  return { cli: join(npm, "bin", "npm-cli.js"), gyp, bin: join(prefix, "bin") };
}

const ELSEWHERE = "/nonexistent/bin/node";

describe("npm's node-gyp", () => {
  it("is the one npm's node-gyp setting names (npm run hands it on as npm_config_node_gyp)", () => {
    const { gyp } = npmInstall(tempDir("adreport-npm-"));
    expect(findNodeGyp({ npm_config_node_gyp: gyp, PATH: "" }, ELSEWHERE)).toBe(gyp);
  });

  it("is found in the install folder of the npm that runs the script, of the npm on PATH, or beside node", () => {
    const { cli, gyp, bin } = npmInstall(tempDir("adreport-npm-"));
    expect(findNodeGyp({ npm_execpath: cli, PATH: "" }, ELSEWHERE)).toBe(gyp);
    expect(findNodeGyp({ PATH: `/nonexistent:${bin}` }, ELSEWHERE)).toBe(gyp);
    expect(findNodeGyp({ PATH: "" }, join(bin, "node"))).toBe(gyp);
  });

  it("on this machine, with npm's global prefix moved to an empty folder: still npm's own", () => {
    const env: Record<string, string | undefined> = { ...process.env, NPM_CONFIG_PREFIX: tempDir("adreport-prefix-") };
    delete env.npm_config_node_gyp;
    delete env.npm_execpath;
    const moved = spawnSync("npm", ["root", "-g"], { env, encoding: "utf8" }).stdout.trim();
    const found = findNodeGyp(env);
    expect(found).toMatch(/node_modules\/npm\/node_modules\/node-gyp\/bin\/node-gyp\.js$/);
    expect(found.startsWith(moved)).toBe(false);
    expect(spawnSync(process.execPath, [found, "--version"], { encoding: "utf8" }).stdout).toMatch(/^v\d+\./);
  });

  it("not found, or a setting naming a missing file: one line and the setting to change", () => {
    const missing = () => findNodeGyp({ PATH: "" }, ELSEWHERE);
    expect(missing).toThrow(BuildSetupError);
    expect(missing).toThrow(/^node-gyp not found: /);
    try {
      missing();
    } catch (error) {
      expect((error as BuildSetupError).hint).toMatch(/^tell npm where node-gyp\.js is: npm config set node-gyp /);
    }
    expect(() => findNodeGyp({ npm_config_node_gyp: "/nonexistent/node-gyp.js", PATH: "" }, ELSEWHERE)).toThrow(
      "npm's node-gyp setting names /nonexistent/node-gyp.js, which does not exist",
    );
  });

  it("the build scripts' failures are one line, never a stack", () => {
    const result = spawnSync(process.execPath, [join(ROOT, "scripts", "node-runtime.mjs"), "use", "99"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe("node-runtime: no Node.js release is set for line 99; known: 20,22,24\n");
  });
});
