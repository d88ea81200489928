/**
 * `npm pack` makes a package that installs from its tarball into an empty folder and runs: the CLI
 * answers, and `serve` works with the native SQLite addon. What only the tarball can get wrong is checked
 * here: its files, its declared dependencies, the `adreport` bin link, the bundle running from another
 * folder. The install runs with --ignore-scripts and the addon this checkout compiled is copied in, since
 * compiling better-sqlite3 from source (minutes of one core) is the install script `npm ci` already runs,
 * the same version on the same machine, before any test does.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp";

const ROOT = join(import.meta.dirname, "..", "..");

describe("npm pack", () => {
  it("installs from the tarball in an empty folder and runs", () => {
    const out = tempDir("adreport-pack-");
    // --ignore-scripts: packing must not rebuild dist/ under the other tests running now; npm test built it.
    execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", out, "--silent"], {
      cwd: ROOT,
      stdio: "pipe",
    });
    const tarball = readdirSync(out).find((f) => f.endsWith(".tgz"));
    expect(tarball).toBeDefined();
    const app = join(out, "app");
    execFileSync("mkdir", ["-p", app]);
    execFileSync("npm", ["init", "-y"], { cwd: app, stdio: "pipe" });
    execFileSync(
      "npm",
      ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline", join(out, tarball as string)],
      { cwd: app, stdio: "pipe" },
    );
    const addon = join("better-sqlite3", "build", "Release", "better_sqlite3.node");
    mkdirSync(join(app, "node_modules", addon, ".."), { recursive: true });
    copyFileSync(join(ROOT, "node_modules", addon), join(app, "node_modules", addon));
    const tree = JSON.parse(execFileSync("npm", ["ls", "--json", "--all"], { cwd: app, encoding: "utf8" }));
    expect(tree.dependencies.adreport.dependencies).toHaveProperty("better-sqlite3");
    expect(existsSync(join(app, "node_modules", "adreport", "THIRD-PARTY-NOTICES"))).toBe(true);
    const adreport = join(app, "node_modules", ".bin", "adreport");
    const run = (...args: string[]) =>
      spawnSync(adreport, args, {
        cwd: app,
        encoding: "utf8",
        env: { ...process.env, ADREPORT_CONFIG_DIR: join(app, "cfg") },
      });
    expect(run("--version").stdout.trim()).toMatch(/^adreport \d+\.\d+\.\d+ \(Node\.js v/);
    expect(run("serve", "demo", "--db", "demo.db", "--days", "3").status).toBe(0);
    const listed = run("serve", "key", "list", "--db", "demo.db", "--json");
    expect(listed.status).toBe(0);
    const request = run("keys", "request", "new", "--account", "Acme", "--format", "json");
    expect(JSON.parse(request.stdout)).toMatchObject({ request: "new_key" });
  }, 180_000);
});
