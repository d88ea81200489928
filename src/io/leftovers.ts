/**
 * What a run killed with SIGKILL leaves behind, found by the next run and removed: the staged files of
 * `{date}` exports (`.<name>.<pid>.<hex>.tmp` beside their targets) and the spool folders of runs over
 * several accounts (`adreport-accounts-<pid>-XXXXXX` in the temporary folder). Only files whose owner, the
 * pid in the name, no longer runs on this host are removed: a live run's files never are.
 */
import { lstat, readdir, rm, unlink } from "node:fs/promises";
import { join } from "node:path";
import { errnoCode } from "./errno-words";

/** True only when no process has this pid (ESRCH); a process of another user (EPERM) still runs. */
export function ownerGone(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return errnoCode(error) === "ESRCH";
  }
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Removes, in `folder`, the staged files of targets named like `base` (a file name in which `{date}` stands
 * for any day) left by runs that are gone. Returns how many went; a folder that cannot be read is skipped.
 */
export async function removeStagedLeftovers(folder: string, base: string): Promise<number> {
  const name = escaped(base).replaceAll(escaped("{date}"), "\\d{4}-\\d{2}-\\d{2}");
  const pattern = new RegExp(`^\\.${name}\\.(\\d+)\\.[0-9a-f]{8}\\.tmp$`);
  const names = await readdir(folder).catch(() => [] as string[]);
  let removed = 0;
  for (const entry of names) {
    const match = pattern.exec(entry);
    if (!match || !ownerGone(Number(match[1]))) continue;
    const path = join(folder, entry);
    const found = await lstat(path).catch(() => undefined);
    if (!found?.isFile()) continue;
    await unlink(path).then(
      () => {
        removed += 1;
      },
      () => undefined,
    );
  }
  return removed;
}

export const SPOOL_PREFIX = "adreport-accounts-";

/** The prefix of this process's spool folders (mkdtemp adds six characters). */
export function spoolPrefix(): string {
  return `${SPOOL_PREFIX}${process.pid}-`;
}

/** Removes the spool folders in `parent` this user's runs left when they were killed. */
export async function removeSpoolLeftovers(parent: string): Promise<void> {
  const pattern = new RegExp(`^${SPOOL_PREFIX}(\\d+)-[A-Za-z0-9]{6}$`);
  const uid = process.getuid?.();
  const names = await readdir(parent).catch(() => [] as string[]);
  for (const entry of names) {
    const match = pattern.exec(entry);
    if (!match || !ownerGone(Number(match[1]))) continue;
    const path = join(parent, entry);
    const found = await lstat(path).catch(() => undefined);
    if (!found?.isDirectory() || (uid !== undefined && found.uid !== uid)) continue;
    await rm(path, { recursive: true, force: true }).catch(() => undefined);
  }
}
