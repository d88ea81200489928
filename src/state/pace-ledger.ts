/**
 * The pace shared by the processes of one host that use one key against one service (two cron jobs): the
 * schedule of core/pace-slot.ts kept in a small file of the state folder, read and written under a lock
 * file at each request. The file is named by a hash of the base URL and the key, never the key. The lock is
 * held for a read and a write, a millisecond: one older than seconds was left by a killed process and is
 * removed (two removing it at once cost at worst one slot shared, not an export). When the lock cannot be
 * had, or the folder not written, the process paces alone rather than failing its export. The file calls
 * are synchronous (tens of microseconds each), and the record is rewritten in place at a fixed size: a
 * file truncated and written again is flushed by ext4 at once, milliseconds a request.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { userInfo } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { MemoryPaceLedger, type PaceLedger, type PaceRequest, type PaceState, reserveSlot } from "../core/pace-slot";

/** The ledger file of a key at a service, in `folder` (the config folder's state/pace). */
export function paceLedgerPath(folder: string, baseUrl: string, apiKey: string): string {
  const digest = createHash("sha256").update(`adreport pace\0${baseUrl}\0${apiKey}`).digest("hex");
  return join(folder, `${digest.slice(0, 24)}.json`);
}

/** How long a request waits for the lock before pacing alone. */
const LOCK_PATIENCE_MS = 2000;
/** A lock this old was left by a process killed while holding it. */
const STALE_LOCK_MS = 5000;

/** A schedule further ahead than this was not written by a pace (a Retry-After waits at most minutes). */
const FURTHEST_MS = 15 * 60_000;

function parseState(text: string | undefined, now: number): PaceState {
  try {
    const value: unknown = JSON.parse(text ?? "");
    const tat = (value as { tat?: unknown }).tat;
    return { tat: typeof tat === "number" && Number.isFinite(tat) && tat <= now + FURTHEST_MS ? tat : 0 };
  } catch {
    return { tat: 0 };
  }
}

const RECORD_BYTES = 64;

/** The schedule in the file at `path` moved on by `reserve`, under the lock; a missing file is made. */
function update(path: string, now: number, reserve: (state: PaceState) => PaceState): void {
  // Never through a link: the state folder may be shared with someone who plants one.
  const { O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
  let fd: number;
  try {
    fd = openSync(path, O_RDWR | O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    fd = openSync(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  }
  try {
    const buffer = Buffer.alloc(RECORD_BYTES);
    const read = readSync(fd, buffer, 0, RECORD_BYTES, 0);
    const next = reserve(parseState(buffer.subarray(0, read).toString("utf8"), now));
    writeSync(fd, `${JSON.stringify(next)}\n`.padEnd(RECORD_BYTES, " "), 0);
  } finally {
    closeSync(fd);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** Makes the ledgers' folder (0700); true when it is this user's and no one else may write in it. */
function ownFolder(folder: string): boolean {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const found = lstatSync(folder);
    return found.isDirectory() && found.uid === userInfo().uid && (found.mode & 0o022) === 0;
  } catch {
    return false; // unwritable: this run paces alone
  }
}

export class FilePaceLedger implements PaceLedger {
  private readonly alone = new MemoryPaceLedger();
  private readonly lock: string;
  /** Whether the folder is ours alone: another user could stall our exports with a schedule in it. */
  private shared: boolean | undefined;

  constructor(readonly path: string) {
    this.lock = `${path}.lock`;
  }

  async reserve(request: PaceRequest): Promise<number> {
    // Nothing known limits this run and no other run keeps a schedule: no file is made (an export from a
    // service without a limit leaves nothing in the state folder).
    const unlimited = request.intervalMs === 0 && request.floor <= request.now;
    if (unlimited && !existsSync(this.path)) return this.alone.reserve(request);
    this.shared ??= ownFolder(dirname(this.path));
    if (!this.shared) return this.alone.reserve(request);
    if (!(await this.locked())) return this.alone.reserve(request);
    try {
      let sendAt = request.now;
      update(this.path, request.now, (state) => {
        const slot = reserveSlot(state, request);
        sendAt = slot.sendAt;
        return slot.state;
      });
      return sendAt;
    } catch {
      return this.alone.reserve(request);
    } finally {
      removeQuietly(this.lock);
    }
  }

  private async locked(): Promise<boolean> {
    const started = Date.now();
    for (let wait = 1; Date.now() - started < LOCK_PATIENCE_MS; wait = Math.min(wait * 2, 16)) {
      try {
        closeSync(openSync(this.lock, "wx", 0o600));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
      }
      let age = 0;
      try {
        age = Date.now() - statSync(this.lock).mtimeMs;
      } catch {
        // Released meanwhile.
      }
      if (age > STALE_LOCK_MS) removeQuietly(this.lock);
      else await sleep(wait);
    }
    return false;
  }
}
