/** Where a command's plan is made (engine/plan/common.ts): its folder, its streams, the file system's answers. */
import type { PlanPlace } from "../../engine/plan/common";
import { fileSystemLook } from "../../engine/run/output-look";
import type { Context } from "../context";
import { paceFolder, stateFolder } from "./state-folder";

export function planPlace(ctx: Context, now: Date, warn: (text: string) => void): PlanPlace {
  return {
    cwd: ctx.cwd,
    io: ctx.io,
    now,
    stateFolder: stateFolder(ctx),
    paceFolder: paceFolder(ctx),
    look: fileSystemLook(ctx),
    warn,
  };
}
