/** A place to plan in for the engine's planning tests: streams in memory, a look that records what it is asked. */
import { PassThrough } from "node:stream";
import type { ConfigData } from "../../../../src/config/file";
import { type Layers, type ResolvedSettings, resolveSettings } from "../../../../src/config/resolve";
import type { PlanPlace } from "../../../../src/engine/plan/common";
import type { OutputLook } from "../../../../src/engine/plan/look";
import type { FolderProblem } from "../../../../src/engine/plan/output-folder";
import type { IOStreams } from "../../../../src/io/iostreams";

export const NOW = new Date("2026-10-25T09:30:00Z");

export function memoryStreams(): IOStreams {
  return {
    in: new PassThrough(),
    out: new PassThrough(),
    err: new PassThrough(),
    inIsTTY: false,
    outIsTTY: false,
    errIsTTY: false,
    color: false,
    outColor: false,
    columns: 100,
    errColumns: 0,
  };
}

/** The paths the look was asked about, and the answers it gives: no stream, no folder problem unless told. */
export function recordingLook(folders: Record<string, FolderProblem> = {}): OutputLook & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    check: async (path) => {
      if (path !== undefined) asked.push(`check ${path}`);
    },
    folder: async (target) => {
      asked.push(`folder ${target}`);
      return folders[target];
    },
    isStream: async (path) => {
      if (path !== undefined) asked.push(`stream ${path}`);
      return false;
    },
  };
}

export function place(look: OutputLook = recordingLook()): PlanPlace & { said: string[] } {
  const said: string[] = [];
  return {
    said,
    cwd: "/work/exports",
    io: memoryStreams(),
    now: NOW,
    stateFolder: "/home/u/.config/adreport/state",
    paceFolder: "/home/u/.config/adreport/state/pace",
    look,
    warn: (text) => said.push(text),
  };
}

export const CONFIG: ConfigData = {
  settings: {},
  profiles: {
    acme: { "api-key": "adr_profile_acme_key_0000", tz: "Europe/Berlin", delimiter: ";" },
    globex: { "api-key": "adr_profile_globex_key_00" },
    nokey: {},
  },
};

/** The settings of `profile`, named as a run over accounts names it, in `env`. */
export function settingsOf(
  profile: string,
  env: Record<string, string> = {},
  flags: Layers["flags"] = {},
): ResolvedSettings {
  return resolveSettings({ flags: { ...flags, profile }, env, file: CONFIG, filePath: "/cfg/config.json" });
}
