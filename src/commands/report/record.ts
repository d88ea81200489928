/** `report --record DIR`: the folder opened before any request, and its write failures as exit 1. */
import { Recorder } from "../../api";
import { OutputError, UsageError } from "../../core/errors";
import { reasonInWords } from "../../io/errno-words";
import { openRecordingFolder, RecordingFolderError } from "../../io/recording-folder";
import type { Context } from "../context";

export function openRecorder(ctx: Pick<Context, "cwd">, dir: string, apiKey: string): Recorder {
  let folder: ReturnType<typeof openRecordingFolder>;
  try {
    folder = openRecordingFolder(dir, ctx.cwd);
  } catch (error) {
    if (error instanceof RecordingFolderError) throw new UsageError(`--record: ${error.message}`);
    throw new OutputError(`--record: cannot create ${dir}: ${reasonInWords(error)}`, { cause: error });
  }
  const write = (name: string, text: string) => {
    try {
      folder.write(name, text);
    } catch (error) {
      throw new OutputError(`--record: cannot write ${dir}/${name}: ${reasonInWords(error)}`, { cause: error });
    }
  };
  return new Recorder(apiKey, {
    writeExchange: write,
    writeIndex: (text) => write("index.json", text),
  });
}
