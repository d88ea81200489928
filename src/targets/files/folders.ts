/**
 * The folders a `{date}` template names by day (`d/{date}/x.csv`): a new day's folder cannot be there
 * before its day, so it is made as the day's file is staged (the folder above, `d`, is checked before any
 * request, engine/plan/output-folder.ts). Folders a run made that hold no file once it ends (it failed, or the day's
 * file was not put in place) are removed again, so a failed run leaves the folders as they were.
 */
import { rmdirSync } from "node:fs";
import { mkdir, rmdir, stat } from "node:fs/promises";
import { dirname } from "node:path";

export class DayFolders {
  private readonly made: string[] = [];

  /** Makes `folder` (absolute) and the missing folders above it. */
  async ready(folder: string): Promise<void> {
    const missing: string[] = [];
    for (let at = folder; at !== dirname(at); at = dirname(at)) {
      if (
        await stat(at).then(
          () => true,
          () => false,
        )
      )
        break;
      missing.unshift(at);
    }
    for (const at of missing) {
      const made = await mkdir(at).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === "EEXIST") return false; // made meanwhile, not by this run
          throw error;
        },
      );
      if (made) this.made.push(at);
    }
  }

  /** Removes the folders this run made that are empty, deepest first (one holding a file stays). */
  async removeEmpty(): Promise<void> {
    for (const at of this.made.splice(0).reverse()) await rmdir(at).catch(() => undefined);
  }

  /** removeEmpty at once, for a signal handler. */
  removeEmptyNow(): void {
    for (const at of this.made.splice(0).reverse()) {
      try {
        rmdirSync(at);
      } catch {
        // not empty, or gone: left as it is
      }
    }
  }
}
