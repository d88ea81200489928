/**
 * The folder an output goes into, checked before any request: a run never makes it (a typo in -o would
 * start a new folder of files beside the real one), so a folder that is not there is refused as input,
 * exit 2, with the command that makes it. Shared by one file, a file per account and {date} files (whose
 * folders named by {date} are made day by day, targets/files/folders.ts: the folder above them is checked).
 */
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { UsageError } from "../../core/errors";
import { shellWord } from "../../core/shell-word";

/** An output whose folder a run refuses: the output as given, the folder as given, what is wrong with it. */
export interface FolderProblem {
  readonly target: string;
  readonly folder: string;
  readonly problem: "no such folder" | "not a folder";
}

/** The folder `target` goes into (relative to `cwd`) when it is not there, or is not a folder. */
export async function folderProblem(
  cwd: string,
  target: string,
  folder = dirname(target),
): Promise<FolderProblem | undefined> {
  const found = await stat(resolve(cwd, folder)).catch((error: NodeJS.ErrnoException) => error.code);
  if (typeof found !== "string") return found?.isDirectory() ? undefined : { target, folder, problem: "not a folder" };
  if (found !== "ENOTDIR") return { target, folder, problem: "no such folder" };
  // A file on the way (`report.csv/x.csv`): `mkdir -p` would fail on it, so it is the one named.
  let part = dirname(folder);
  while (part !== dirname(part) && !(await isFile(resolve(cwd, part)))) part = dirname(part);
  return { target, folder: part, problem: "not a folder" };
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === false;
}

/** The refusal of a run whose output's folder is missing or not a folder, with what to do about it. */
export function folderRefusal({ target, folder, problem }: FolderProblem): UsageError {
  return problem === "no such folder"
    ? new UsageError(`cannot write ${target}: no such folder`, {
        // A folder named with a leading dash would be read by mkdir as an option.
        hint: `create it first: mkdir -p ${shellWord(folder.startsWith("-") ? `./${folder}` : folder)}`,
      })
    : new UsageError(`cannot write ${target}: ${folder} is not a folder`, {
        hint: "remove or rename what is there, or change -o",
      });
}
