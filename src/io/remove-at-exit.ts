/**
 * A temporary folder removed even when the process ends without unwinding: `process.exit` (a reader that
 * closed standard output, `| head`, ends the process at once) runs no `finally`, only 'exit' listeners.
 */
import { rmSync } from "node:fs";

/** Removes `path` (recursively) when the process exits; the returned function cancels that. */
export function removeAtExit(path: string): () => void {
  const remove = () => rmSync(path, { recursive: true, force: true });
  process.once("exit", remove);
  return () => process.off("exit", remove);
}
