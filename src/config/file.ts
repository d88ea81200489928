/**
 * The config file: `config.json` in $ADREPORT_CONFIG_DIR, else $XDG_CONFIG_HOME/adreport, else
 * ~/.config/adreport. Written through conf (atomic writes), mode 0600 in a 0700 folder, both repaired on
 * every write and reported on read when someone widened them. A file that cannot be read is never
 * overwritten: the user is told which file and why.
 */
import { chmodSync, mkdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { UsageError } from "../core/errors";

export interface ProfileData {
  "api-key"?: string;
  [setting: string]: unknown;
}

export interface ConfigData {
  settings: Record<string, unknown>;
  profiles: Record<string, ProfileData>;
}

export function configDir(env: Readonly<Record<string, string | undefined>>): string {
  if (env.ADREPORT_CONFIG_DIR) return env.ADREPORT_CONFIG_DIR;
  const base =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== "" ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), ".config");
  return join(base, "adreport");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type ConfStore = { store: Record<string, unknown>; path: string };

export class ConfigFile {
  readonly path: string;
  private conf: ConfStore | undefined;

  constructor(readonly dir: string) {
    this.path = join(dir, "config.json");
  }

  private exists(): boolean {
    try {
      statSync(this.path);
      return true;
    } catch {
      return false;
    }
  }

  private async open(): Promise<ConfStore> {
    if (this.conf) return this.conf;
    const { default: Conf } = await import("conf");
    try {
      this.conf = new Conf<Record<string, unknown>>({
        cwd: this.dir,
        configName: "config",
        projectSuffix: "",
        configFileMode: 0o600,
        clearInvalidConfig: false,
        accessPropertiesByDotNotation: false,
      }) as unknown as ConfStore;
    } catch (error) {
      throw new UsageError(`cannot read the config file ${this.path}: ${(error as Error).message}`, {
        hint: "fix the file or move it away (adreport leaves it untouched)",
      });
    }
    return this.conf;
  }

  /** The file's content, checked for shape; empty when there is no file yet. */
  async read(): Promise<ConfigData> {
    if (!this.exists()) return { settings: {}, profiles: {} };
    const store = (await this.open()).store;
    const settings = store.settings ?? {};
    const profiles = store.profiles ?? {};
    if (!isObject(settings) || !isObject(profiles) || !Object.values(profiles).every(isObject)) {
      throw new UsageError(`the config file ${this.path} is not in adreport's shape`, {
        hint: "fix the file or move it away (adreport leaves it untouched)",
      });
    }
    return { settings, profiles: profiles as Record<string, ProfileData> };
  }

  async write(data: ConfigData): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const conf = await this.open();
    conf.store = { settings: data.settings, profiles: data.profiles };
    chmodSync(this.path, 0o600);
  }

  /** A warning when the file or its folder can be read by others, if they exist. */
  permissionWarning(): string | undefined {
    const loose = (path: string, allowed: number) => {
      try {
        const mode = statSync(path).mode & 0o777;
        return (mode & ~allowed) !== 0 ? mode : undefined;
      } catch {
        return undefined;
      }
    };
    const fileMode = loose(this.path, 0o600);
    if (fileMode !== undefined) {
      return `${this.path} holds API keys but is mode ${fileMode.toString(8).padStart(4, "0")}: run chmod 600 ${this.path}`;
    }
    const dirMode = loose(this.dir, 0o700);
    if (dirMode !== undefined && this.exists()) {
      return `${this.dir} is mode ${dirMode.toString(8).padStart(4, "0")}: run chmod 700 ${this.dir}`;
    }
    return undefined;
  }
}
