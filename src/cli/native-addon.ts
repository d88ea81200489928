/**
 * The single-file binary carries better-sqlite3's native addon as an asset. Node can only load an addon
 * from a file, so it is written once to a temporary folder named after its own hash and loaded from there.
 */
import type * as Crypto from "node:crypto";
import type * as Fs from "node:fs";
import type * as Os from "node:os";
import type * as Path from "node:path";

const SQLITE_ASSET = "better_sqlite3.node";

let loaded: object | undefined;

/** `host` is the running process (system-context.ts), which names the temporary file and loads the addon. */
export function embeddedSqliteAddon(host: Pick<NodeJS.Process, "pid" | "dlopen">): object | undefined {
  if (loaded) return loaded;
  let sea: typeof import("node:sea");
  try {
    sea = require("node:sea") as typeof import("node:sea");
  } catch {
    return undefined;
  }
  if (!sea.isSea()) return undefined;
  // Required here, not imported: every start of the program reaches this file, only the binary needs these.
  const { createHash } = require("node:crypto") as typeof Crypto;
  const { existsSync, mkdirSync, renameSync, writeFileSync } = require("node:fs") as typeof Fs;
  const { tmpdir } = require("node:os") as typeof Os;
  const { join } = require("node:path") as typeof Path;
  const bytes = Buffer.from(sea.getAsset(SQLITE_ASSET));
  const dir = join(tmpdir(), `adreport-addon-${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}`);
  const file = join(dir, SQLITE_ASSET);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${host.pid}.tmp`;
    writeFileSync(temporary, bytes, { mode: 0o500 });
    renameSync(temporary, file);
  }
  const module = { exports: {} };
  host.dlopen(module, file);
  loaded = module.exports;
  return loaded;
}
