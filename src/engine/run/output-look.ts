/** What planning asks of an output (plan/look.ts), answered by the file system in the command's folder. */
import type { EngineContext } from "../context";
import type { OutputLook } from "../plan/look";
import { outputFolderProblem } from "../plan/output-spec";
import { checkOutput, isStreamOutput } from "./output";

export function fileSystemLook(ctx: Pick<EngineContext, "cwd">): OutputLook {
  return {
    check: (path) => checkOutput(ctx, path),
    folder: (target) => outputFolderProblem(ctx.cwd, target),
    isStream: (path) => isStreamOutput(ctx, path),
  };
}
