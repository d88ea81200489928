/**
 * A small file only its owner may read (mode 0600), replaced atomically: written beside its target,
 * synced, renamed over it, the folder synced (replace-file.ts). A reader sees the old content or the new.
 */
import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { nodeReplaceFs, type ReplaceFs, replaceFileWith } from "./replace-file";

export async function writePrivateFile(path: string, text: string, fs: ReplaceFs = nodeReplaceFs): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await replaceFileWith(path, text, 0o600, fs);
}

/** The file's text, or undefined when there is none. */
export async function readOptionalFile(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
