/**
 * The config file: `config.json` in $ADREPORT_CONFIG_DIR, else $XDG_CONFIG_HOME/adreport, else
 * ~/.config/adreport. It is trusted only when the user running adreport owns it and its folder and
 * nobody else can write them (trusted-path.ts); it is read without following a link, and replaced
 * atomically (a new 0600 file beside it, synced, renamed over it) in the folder's real path: a link in its
 * place is replaced, never written through. (Not conf: docs/development.md says why.) A folder adreport creates is
 * created 0700; one that exists is never chmod'ed (it may be a shared folder with modes of its own). A
 * file that cannot be read is never overwritten: the user is told which file and why.
 */
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { UsageError } from "../core/errors";
import { writePrivateFile } from "../io/private-file";
import { checkBeforeCreating, checkReplaceable, type FileUser, readTrustedFile, trustedFolder } from "./trusted-path";

export type { FileUser } from "./trusted-path";

export interface ProfileData {
  "api-key"?: string;
  [setting: string]: unknown;
}

export interface ConfigData {
  settings: Record<string, unknown>;
  profiles: Record<string, ProfileData>;
}

type Environment = Readonly<Record<string, string | undefined>>;

function homeOf(env: Environment): string {
  return env.HOME ?? homedir();
}

function configDir(env: Environment): string {
  if (env.ADREPORT_CONFIG_DIR) return env.ADREPORT_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== "" ? env.XDG_CONFIG_HOME : join(homeOf(env), ".config");
  return join(base, "adreport");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const LEAVE_IT = "fix the file or move it away (adreport leaves it untouched)";
const NAME = "config.json";

export class ConfigFile {
  readonly path: string;
  /** Permission bits of the file as last read, for the warning about keys others can read. */
  private readMode: number | undefined;
  private holdsKeys = false;

  /** `dir` as the environment gives it (relative to `cwd`, the command's folder, if it is relative). */
  private constructor(
    readonly dir: string,
    private readonly owner: { user: FileUser | undefined; home: string | undefined; cwd: string },
  ) {
    this.path = join(dir, NAME);
  }

  /** The config file of this environment, checked against this user. */
  static of(env: Environment, user: FileUser | undefined, cwd: string): ConfigFile {
    const home = homeOf(env);
    return new ConfigFile(configDir(env), { user, home: home === "" ? home : resolve(cwd, home), cwd });
  }

  /** The file's content, checked for shape; empty when there is no file yet. Refuses an untrusted one. */
  async read(): Promise<ConfigData> {
    const { user, home, cwd } = this.owner;
    const folder = trustedFolder(this.dir, user, home, cwd);
    const file = folder === undefined ? undefined : readTrustedFile(join(folder, NAME), user);
    if (file === undefined) return { settings: {}, profiles: {} };
    let store: unknown;
    try {
      store = JSON.parse(file.text);
    } catch (error) {
      throw new UsageError(`cannot read the config file ${this.path}: ${(error as Error).message}`, { hint: LEAVE_IT });
    }
    const settings = isObject(store) ? (store.settings ?? {}) : undefined;
    const profiles = isObject(store) ? (store.profiles ?? {}) : undefined;
    if (!isObject(settings) || !isObject(profiles) || !Object.values(profiles).every(isObject)) {
      throw new UsageError(`the config file ${this.path} is not in adreport's shape`, { hint: LEAVE_IT });
    }
    this.readMode = file.mode;
    this.holdsKeys = Object.values(profiles).some((p) => isObject(p) && p["api-key"] !== undefined);
    return { settings, profiles: profiles as Record<string, ProfileData> };
  }

  async write(data: ConfigData): Promise<void> {
    const { user, home, cwd } = this.owner;
    if (trustedFolder(this.dir, user, home, cwd) === undefined) {
      checkBeforeCreating(this.dir, user, home, cwd);
      mkdirSync(resolve(cwd, this.dir), { recursive: true, mode: 0o700 });
    }
    // Checked again after creating it: someone may have made the folder first.
    const folder = trustedFolder(this.dir, user, home, cwd) as string;
    // Another owner's file is refused rather than replaced by one of ours: it was not ours to change.
    checkReplaceable(join(folder, NAME), user);
    const text = `${JSON.stringify({ settings: data.settings, profiles: data.profiles }, null, "\t")}\n`;
    await writePrivateFile(join(folder, NAME), text);
  }

  /**
   * A warning when others can read the keys in the file (they may have copied them). Not a refusal:
   * refusing would not take the keys back, and the next write makes the file 0600 again.
   */
  permissionWarning(): string | undefined {
    if (this.readMode === undefined || !this.holdsKeys || (this.readMode & 0o077) === 0) return undefined;
    const mode = (this.readMode & 0o777).toString(8).padStart(4, "0");
    return `${this.path} holds API keys but is mode ${mode}, readable by others: run chmod 600 ${this.path}, and consider asking for new keys (adreport keys request rotate)`;
  }
}
