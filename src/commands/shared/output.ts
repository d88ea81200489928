/** An output file for a command, written atomically; a file that cannot be created is bad input (exit 2). */
import { UsageError } from "../../core/errors";
import { fileSink, type Sink, SinkOpenError } from "../../io/sink";

export async function openOutputFile(path: string): Promise<Sink> {
  try {
    return await fileSink(path);
  } catch (error) {
    throw error instanceof SinkOpenError ? new UsageError(error.message) : error;
  }
}
