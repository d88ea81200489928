/**
 * The single-file binary carries better-sqlite3's native addon as an asset. Node can only load an addon
 * from a file, so it is written once to a temporary folder named after the user and its own hash, and
 * loaded from there. The folder is shared /tmp: whatever is found there is loaded only when it is ours, is
 * written by nobody else, and holds exactly the asset's bytes; else the addon goes to a new private folder.
 */
import type * as Crypto from "node:crypto";
import type * as Fs from "node:fs";
import type { Stats } from "node:fs";
import type * as Os from "node:os";
import type * as Path from "node:path";

// Required when used, not imported: every start of the program reaches this file, only the binary needs these.
const fs = () => require("node:fs") as typeof Fs;
const join = (...parts: string[]) => (require("node:path") as typeof Path).join(...parts);
const tmpdir = () => (require("node:os") as typeof Os).tmpdir();
const sha256 = (bytes: Buffer) =>
  (require("node:crypto") as typeof Crypto).createHash("sha256").update(bytes).digest("hex");

const SQLITE_ASSET = "better_sqlite3.node";

let loaded: object | undefined;

type Host = Pick<NodeJS.Process, "pid" | "dlopen" | "getuid">;

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return fs().lstatSync(path);
  } catch {
    return undefined;
  }
}

/** A folder or file only this user can change: owned by it, written by no group or other, not a link. */
function ownedAndPrivate(stats: Stats | undefined, uid: number | undefined): boolean {
  if (!stats || stats.isSymbolicLink()) return false;
  return (uid === undefined || stats.uid === uid) && (stats.mode & 0o022) === 0;
}

function writeAddon(dir: string, bytes: Buffer, pid: number): string {
  const file = join(dir, SQLITE_ASSET);
  const temporary = `${file}.${pid}.tmp`;
  fs().writeFileSync(temporary, bytes, { mode: 0o500 });
  fs().renameSync(temporary, file);
  return file;
}

/** The addon's file, written where needed: the shared folder when it is safe, else a new private one. */
function addonFile(bytes: Buffer, host: Host): string {
  const uid = host.getuid?.();
  const hash = sha256(bytes);
  const dir = join(tmpdir(), `adreport-addon-${uid ?? "u"}-${hash.slice(0, 16)}`);
  fs().mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (ownedAndPrivate(lstatOrUndefined(dir), uid)) {
    const file = join(dir, SQLITE_ASSET);
    const stats = lstatOrUndefined(file);
    if (!stats) return writeAddon(dir, bytes, host.pid);
    if (ownedAndPrivate(stats, uid) && stats.isFile()) {
      const found = sha256(fs().readFileSync(file));
      if (found === hash) return file;
    }
  }
  return writeAddon(fs().mkdtempSync(join(tmpdir(), "adreport-addon-")), bytes, host.pid);
}

/** `host` is the running process (system-context.ts), which names the temporary file and loads the addon. */
export function embeddedSqliteAddon(host: Host): object | undefined {
  if (loaded) return loaded;
  let sea: typeof import("node:sea");
  try {
    sea = require("node:sea") as typeof import("node:sea");
  } catch {
    return undefined;
  }
  if (!sea.isSea()) return undefined;
  const bytes = Buffer.from(sea.getAsset(SQLITE_ASSET));
  const module = { exports: {} };
  host.dlopen(module, addonFile(bytes, host));
  loaded = module.exports;
  return loaded;
}
