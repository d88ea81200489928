/**
 * One writer at a time: a lock file created with O_EXCL holding the owner's pid. A lock whose pid no
 * longer runs (a run killed with SIGKILL, a host that rebooted) is stale and taken over; a live one is
 * not waited for: the caller is told which pid holds it.
 */
import { constants } from "node:fs";
import { mkdir, open, readFile, unlink } from "node:fs/promises";
import { dirname } from "node:path";

export type LockResult = { ok: true; release: () => Promise<void> } | { ok: false; holder: number };

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function holderOf(path: string): Promise<number | undefined> {
  const text = await readFile(path, "utf8").catch(() => "");
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

export async function takeLock(path: string): Promise<LockResult> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      let released = false;
      return {
        ok: true,
        release: async () => {
          if (released) return;
          released = true;
          await unlink(path).catch(() => undefined);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await holderOf(path);
    // A lock file still being written has no pid yet: its writer is alive.
    if (holder === undefined && attempt === 0) continue;
    if (holder !== undefined && running(holder)) return { ok: false, holder };
    await unlink(path).catch(() => undefined);
  }
  return { ok: false, holder: (await holderOf(path)) ?? 0 };
}
