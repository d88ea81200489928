/**
 * One writer at a time: a lock file created with O_EXCL holding the owner's pid and host name. A lock of
 * this host whose pid no longer runs (a run killed with SIGKILL, a host that rebooted) is stale and taken
 * over; a live one is not waited for: the caller is told which pid holds it. A lock of another host (a
 * state file on a shared volume, another container) is never taken over: its pid means nothing here.
 */
import { constants } from "node:fs";
import { mkdir, open, readFile, stat, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";

/** Who holds a lock, as `lockHolder` tells it. */
export interface LockHolder {
  pid: number | undefined;
  host: string | undefined;
  live: boolean | undefined;
}

/** `holder`: who holds the lock, as `4242` or `4242 on build-2`. */
export type LockResult = { ok: true; release: () => Promise<void> } | { ok: false; holder: string };

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface Holder {
  pid: number;
  /** Undefined for this host (or a lock written before the host was recorded). */
  host: string | undefined;
}

async function holderOf(path: string): Promise<Holder | undefined> {
  return parseHolder(await readFile(path, "utf8").catch(() => ""));
}

function parseHolder(text: string): Holder | undefined {
  const [pidLine, hostLine] = text.split("\n");
  const pid = Number.parseInt(pidLine?.trim() ?? "", 10);
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  const host = hostLine?.trim();
  return { pid, host: host === undefined || host === "" || host === hostname() ? undefined : host };
}

function described(holder: Holder | undefined): string {
  if (holder === undefined) return "0";
  return holder.host === undefined ? String(holder.pid) : `${holder.pid} on ${JSON.stringify(holder.host)}`;
}

const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
/** A lock with no pid written this long after it was made was left by a run killed between open and write. */
const UNWRITTEN_LOCK_MS = 10_000;

/**
 * Removes a lock judged stale (it held `judged`), one remover at a time: under `PATH.takeover`, made
 * exclusively, and only if the lock still holds what was judged. Without it, two runs that found the same
 * stale lock could each remove it, the second removing the first's new lock: two holders.
 */
async function removeStale(path: string, judged: string): Promise<void> {
  const guard = `${path}.takeover`;
  try {
    const handle = await open(guard, EXCLUSIVE, 0o600);
    try {
      await handle.writeFile(`${process.pid}\n${hostname()}\n`);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // Another run is taking over now; a guard left by a run killed in these few lines is removed.
    const remover = await holderOf(guard);
    if (remover !== undefined && remover.host === undefined && !running(remover.pid)) {
      await unlink(guard).catch(() => undefined);
    }
    return;
  }
  try {
    const now = await readFile(path, "utf8").catch(() => undefined);
    if (now === judged) await unlink(path).catch(() => undefined);
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

export async function takeLock(path: string): Promise<LockResult> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const handle = await open(path, EXCLUSIVE, 0o600);
      try {
        await handle.writeFile(`${process.pid}\n${hostname()}\n`);
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
    const text = await readFile(path, "utf8").catch(() => undefined);
    if (text === undefined) continue; // released meanwhile
    const holder = parseHolder(text);
    // A lock file still being written has no pid yet: its writer is alive, unless it has been so for long.
    if (holder === undefined) {
      if (attempt === 0) continue;
      const age = await stat(path).then(
        (s) => Date.now() - s.mtimeMs,
        () => Number.POSITIVE_INFINITY,
      );
      if (age < UNWRITTEN_LOCK_MS) return { ok: false, holder: "unknown yet (the other run is starting)" };
    }
    if (holder !== undefined && (holder.host !== undefined || running(holder.pid))) {
      return { ok: false, holder: described(holder) };
    }
    await removeStale(path, text);
  }
  return { ok: false, holder: described(await holderOf(path)) };
}

/**
 * Who holds the lock at `path`, without taking it: undefined when there is none. `live`: its pid runs on
 * this host (false: a stale lock the next run takes over); undefined for another host's, which cannot be told
 * from here, or a lock whose pid is not written yet.
 */
export async function lockHolder(path: string): Promise<LockHolder | undefined> {
  const text = await readFile(path, "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  const holder = parseHolder(text);
  if (holder === undefined) return { pid: undefined, host: undefined, live: undefined };
  return { ...holder, live: holder.host === undefined ? running(holder.pid) : undefined };
}
