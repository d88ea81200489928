// npm's own node-gyp, found the way npm finds it: npm's `node-gyp` setting (`npm run` hands it on as
// npm_config_node_gyp, npm's own copy unless the user set another), else the copy inside npm's install
// folder (node_modules/npm/node_modules/node-gyp), reached from the npm CLI that runs us (npm_execpath), the
// npm on PATH, or the npm installed beside this node. Never from `npm root -g`: that follows npm's global
// prefix, which users move (npm's own advice for EACCES; how `npm link` works without sudo), while npm
// itself stays where it was installed.
import { existsSync, realpathSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";

const INSIDE_NPM = join("node_modules", "node-gyp", "bin", "node-gyp.js");

/** A failure a person can act on: package.mjs prints it as one line and its hint, never a stack. */
export class BuildSetupError extends Error {
  constructor(message, hint) {
    super(message);
    this.hint = hint;
  }
}

/** npm's install folder from the path of its CLI (…/npm/bin/npm-cli.js, or a link to it). */
function npmFolderOf(cli) {
  try {
    const real = realpathSync(cli);
    return real.endsWith(join("bin", "npm-cli.js")) ? dirname(dirname(real)) : undefined;
  } catch {
    return undefined;
  }
}

function npmOnPath(env) {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const folder = npmFolderOf(join(dir, "npm"));
    if (folder !== undefined) return folder;
  }
  return undefined;
}

/** The node-gyp.js to run with node; throws a BuildSetupError naming the setting to change. */
export function findNodeGyp(env = process.env, nodePath = process.execPath) {
  const set = env.npm_config_node_gyp;
  if (set) {
    if (existsSync(set)) return set;
    throw new BuildSetupError(
      `npm's node-gyp setting names ${set}, which does not exist`,
      "point it at node-gyp.js (npm config set node-gyp PATH), or remove it (npm config delete node-gyp)",
    );
  }
  const folders = [
    env.npm_execpath ? npmFolderOf(env.npm_execpath) : undefined,
    npmOnPath(env),
    join(dirname(nodePath), "..", "lib", "node_modules", "npm"),
  ];
  for (const folder of folders) {
    if (folder === undefined) continue;
    const script = join(folder, INSIDE_NPM);
    if (existsSync(script)) return script;
  }
  throw new BuildSetupError(
    "node-gyp not found: neither the npm that runs this nor the npm on PATH holds its own copy",
    "tell npm where node-gyp.js is: npm config set node-gyp /path/to/node-gyp/bin/node-gyp.js (npm install -g node-gyp puts one under `npm root -g`)",
  );
}

/**
 * Prints a build script's failure as `NAME: what happened` and, where known, a hint line; a stack only with
 * ADREPORT_DEBUG=1 (as the CLI). Returns the exit code: 1.
 */
export function reportBuildFailure(name, error) {
  if (process.env.ADREPORT_DEBUG === "1") console.error(error);
  const message = error instanceof Error ? error.message : String(error);
  console.error(`${name}: ${message.split("\n")[0]}`);
  if (error instanceof BuildSetupError && error.hint) console.error(`hint: ${error.hint}`);
  return 1;
}
