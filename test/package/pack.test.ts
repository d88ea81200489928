/**
 * `npm pack` makes a package that installs from its tarball into an empty folder and runs: the CLI
 * answers, and `serve` works with the native SQLite addon the install compiled. Slow (the addon builds
 * from source, about a minute): the timeout is generous, and nothing here measures speed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
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
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", join(out, tarball as string)], {
      cwd: app,
      stdio: "pipe",
    });
    const adreport = join(app, "node_modules", ".bin", "adreport");
    const run = (...args: string[]) =>
      spawnSync(adreport, args, {
        cwd: app,
        encoding: "utf8",
        env: { ...process.env, ADREPORT_CONFIG_DIR: join(app, "cfg") },
      });
    expect(run("--version").stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(run("serve", "demo", "--db", "demo.db", "--days", "3").status).toBe(0);
    const listed = run("serve", "key", "list", "--db", "demo.db", "--json");
    expect(listed.status).toBe(0);
    const request = run("keys", "request", "new", "--account", "Acme", "--format", "json");
    expect(JSON.parse(request.stdout)).toMatchObject({ request: "new_key" });
  }, 600_000);
});
