// Node.js releases from the npm registry (the `node-<platform>-<arch>` package holds the official binary
// and its headers), kept in .cache/: the single binary is built on the current LTS line whatever Node runs
// the build, and CI runs the suite on every supported line. better-sqlite3's addon is compiled for a
// release against that release's own headers (nothing is downloaded but the registry package).
//
//   node scripts/node-runtime.mjs use 24   puts the addon compiled for that release into node_modules and
//                                          prints the folder holding its `node`, for PATH

import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { findNodeGyp, reportBuildFailure } from "./node-gyp.mjs";

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
const CACHE = join(ROOT, ".cache");

/** The release of each supported line the project is tested on; the binary is built on BINARY_LINE. */
export const NODE_RELEASES = { 20: "20.20.2", 22: "22.23.3", 24: "24.21.0" };

function lineOf(version) {
  return Number(version.split(".")[0]);
}
export const BINARY_LINE = 24;
/**
 * better-sqlite3 12 compiled against Node.js 24.19's headers or later aborts when V8 collects a statement
 * after Node tore its environment down (`RemoveEnvironmentCleanupHook: (env) != nullptr`, every `serve
 * demo` here; nodejs/node#65446: those headers' node::ObjectWrap registers a cleanup hook). Compiled
 * against 24.18.1's headers (the same ABI) it runs cleanly on every 24 release.
 */
const ADDON_HEADERS = { 24: "24.18.1" };

const PACKAGE = `node-${process.platform}-${process.arch}`;

function npm(args, options = {}) {
  return execFileSync("npm", args, { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8", ...options });
}

/** The release's folder (bin/node, include/node), installed from the registry the first time. */
export function nodeRelease(line, version = NODE_RELEASES[line]) {
  if (!version) throw new Error(`no Node.js release is set for line ${line}; known: ${Object.keys(NODE_RELEASES)}`);
  const prefix = join(CACHE, "node", version);
  const dir = join(prefix, "node_modules", PACKAGE);
  if (!existsSync(join(dir, "bin", "node"))) {
    mkdirSync(prefix, { recursive: true });
    console.error(`fetching Node.js ${version} (${PACKAGE} from the npm registry) into ${prefix}`);
    npm([
      "install",
      "--prefix",
      prefix,
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      `${PACKAGE}@${version}`,
    ]);
  }
  return { version, dir, node: join(dir, "bin", "node") };
}

/** better-sqlite3's addon compiled for this release's line (cached by both versions). */
export function sqliteAddonFor(runtime) {
  const line = lineOf(runtime.version);
  const release = ADDON_HEADERS[line] ? nodeRelease(line, ADDON_HEADERS[line]) : runtime;
  const source = join(ROOT, "node_modules", "better-sqlite3");
  const { version: bsVersion } = JSON.parse(readFileSync(join(source, "package.json"), "utf8"));
  const out = join(CACHE, "better-sqlite3", `${bsVersion}-node-${release.version}`, "better_sqlite3.node");
  if (existsSync(out)) return out;
  const nodeGyp = findNodeGyp();
  const work = join(CACHE, "better-sqlite3", `build-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  cpSync(source, work, { recursive: true, filter: (path) => !path.startsWith(join(source, "build")) });
  console.error(`compiling better-sqlite3 ${bsVersion} for Node.js ${release.version} (a few minutes of one core)`);
  try {
    // The compiler's warnings about SQLite's and Node's own headers are theirs, not ours, and a build that
    // works would print pages of them: its output is shown only when it fails.
    execFileSync(
      release.node,
      [nodeGyp, "rebuild", "--release", `--nodedir=${release.dir}`, "--jobs=2", "--loglevel=error"],
      {
        cwd: work,
        stdio: ["ignore", "pipe", "pipe"],
        maxBuffer: 256 * 1024 * 1024,
        env: { ...process.env, npm_config_nodedir: release.dir },
      },
    );
  } catch (error) {
    process.stderr.write(`${error.stdout ?? ""}${error.stderr ?? ""}`);
    throw error;
  }
  mkdirSync(dirname(out), { recursive: true });
  renameSync(join(work, "build", "Release", "better_sqlite3.node"), out);
  rmSync(work, { recursive: true, force: true });
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const [what, line] = process.argv.slice(2);
  if (what !== "use" || !line) {
    console.error("usage: node scripts/node-runtime.mjs use LINE");
    process.exit(2);
  }
  try {
    const release = nodeRelease(Number(line));
    const installed = join(ROOT, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node");
    copyFileSync(sqliteAddonFor(release), installed);
    console.log(dirname(release.node));
  } catch (error) {
    process.exit(reportBuildFailure("node-runtime", error));
  }
}
