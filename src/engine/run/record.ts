/** `report --record DIR`: the folder opened before any request, and its write failures as exit 1. */
import { Recorder } from "../../api";
import { OutputError, UsageError } from "../../core/errors";
import { reasonInWords } from "../../io/errno-words";
import { checkRecordingFolder, openRecordingFolder, RecordingFolderError } from "../../io/recording-folder";
import type { EngineContext } from "../context";

/** The folder DIR of --record, created (or taken empty), or the refusal in the CLI's words. */
export function openRecordFolder(ctx: Pick<EngineContext, "cwd">, dir: string): ReturnType<typeof openRecordingFolder> {
  try {
    return openRecordingFolder(dir, ctx.cwd);
  } catch (error) {
    if (error instanceof RecordingFolderError) throw new UsageError(`--record: ${error.message}`);
    throw new OutputError(`--record: cannot create ${dir}: ${reasonInWords(error)}`, { cause: error });
  }
}

/** What openRecordFolder would refuse, found without creating the folder (`report --dry-run`). */
export function checkRecordFolder(ctx: Pick<EngineContext, "cwd">, dir: string): void {
  try {
    checkRecordingFolder(dir, ctx.cwd);
  } catch (error) {
    if (error instanceof RecordingFolderError) throw new UsageError(`--record: ${error.message}`);
    throw new OutputError(`--record: cannot use ${dir}: ${reasonInWords(error)}`, { cause: error });
  }
}

export function openRecorder(ctx: Pick<EngineContext, "cwd" | "argv">, dir: string, apiKey: string): Recorder {
  const folder = openRecordFolder(ctx, dir);
  const write = (name: string, text: string) => {
    try {
      folder.write(name, text);
    } catch (error) {
      throw new OutputError(`--record: cannot write ${dir}/${name}: ${reasonInWords(error)}`, { cause: error });
    }
  };
  return new Recorder(apiKey, { writeExchange: write, writeIndex: (text) => write("index.json", text) }, ctx.argv);
}
