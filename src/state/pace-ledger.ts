/**
 * The pace shared by the processes of one host that use one key against one service (two cron jobs): the
 * shared schedule of core/pace-slot.ts kept in a small file of the state folder, read and written under a
 * lock file when a request is sent (a turn is never reserved ahead: a run that ends, however, leaves only
 * the requests it sent). The file is named by a hash of the base URL and the key, never the key. The lock is
 * held for a read and a write, a millisecond: one older than seconds was left by a killed process and is
 * removed (two removing it at once cost at worst one turn shared, not an export). When the lock cannot be
 * had, or the folder not written, the process paces alone rather than failing its export. The file calls
 * are synchronous (tens of microseconds each), and the record is rewritten in place at a fixed size: a
 * file truncated and written again is flushed by ext4 at once, milliseconds a request. A request that
 * knows no pace and has nothing to tell only reads the file, without the lock, and nothing when there is
 * none.
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
import {
  boundState,
  EMPTY_PACE,
  type PaceLedger,
  type SharedPace,
  type SharedTurn,
  type TurnRequest,
  takeTurn,
} from "../core/pace-slot";
import { timerDelay } from "../core/wait";

/** A key at a service in 24 hex digits: what its pace is kept by (a file's name, a row's key), never the key. */
export function paceFingerprint(baseUrl: string, apiKey: string): string {
  return createHash("sha256").update(`adreport pace\0${baseUrl}\0${apiKey}`).digest("hex").slice(0, 24);
}

/** The ledger file of a key at a service, in `folder` (the config folder's state/pace). */
export function paceLedgerPath(folder: string, baseUrl: string, apiKey: string): string {
  return join(folder, `${paceFingerprint(baseUrl, apiKey)}.json`);
}

/** How long a request waits for the lock before pacing alone. */
const LOCK_PATIENCE_MS = 2000;
/** A lock this old was left by a process killed while holding it. */
const STALE_LOCK_MS = 5000;

const RECORD_BYTES = 128;

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" ? value : fallback;
}

/** The record as written (`{"tat":..,"every":..,"burst":..,"hold":..}`); anything else is no schedule. */
function parseState(text: string): SharedPace {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    return {
      tat: numberOr(value.tat, 0),
      intervalMs: numberOr(value.every, 0),
      burst: numberOr(value.burst, 1),
      hold: numberOr(value.hold, 0),
    };
  } catch {
    return EMPTY_PACE;
  }
}

function readState(fd: number): SharedPace {
  const buffer = Buffer.alloc(RECORD_BYTES);
  const read = readSync(fd, buffer, 0, RECORD_BYTES, 0);
  return parseState(buffer.subarray(0, read).toString("utf8"));
}

function writeState(fd: number, state: SharedPace): void {
  const record = { tat: state.tat, every: state.intervalMs, burst: state.burst, hold: state.hold };
  writeSync(fd, `${JSON.stringify(record)}\n`.padEnd(RECORD_BYTES, " "), 0);
}

// Never through a link: the state folder may be shared with someone who plants one.
const { O_RDONLY, O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;

/** The file opened to read, or undefined when there is none. */
function openToRead(path: string): number | undefined {
  try {
    return openSync(path, O_RDONLY | O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function openToWrite(path: string): number {
  try {
    return openSync(path, O_RDWR | O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return openSync(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** True when the ledgers' folder is this user's and no one else may write in it; made (0700) when `make`. */
function ownFolder(folder: string, make: boolean): boolean {
  try {
    if (make) mkdirSync(folder, { recursive: true, mode: 0o700 });
    const found = lstatSync(folder);
    return found.isDirectory() && found.uid === userInfo().uid && (found.mode & 0o022) === 0;
  } catch {
    return false; // missing or unwritable: this run paces alone
  }
}

/** The turn of a request when nothing holds it. */
function free(request: TurnRequest): SharedTurn {
  return { sendAt: request.now, heldBy: "pace", intervalMs: 0, burst: 1 };
}

export class FilePaceLedger implements PaceLedger {
  private readonly lock: string;
  /** Whether the folder is ours alone: another user could stall our exports with a schedule in it. */
  private trusted: boolean | undefined;

  constructor(readonly path: string) {
    this.lock = `${path}.lock`;
  }

  take(request: TurnRequest): Promise<SharedTurn> {
    return this.apply(request, true);
  }

  async share(request: TurnRequest): Promise<void> {
    await this.apply(request, false);
  }

  private async apply(request: TurnRequest, take: boolean): Promise<SharedTurn> {
    // Nothing known limits this request and it has nothing to tell: the schedule is only read (an export
    // from a service without a limit makes no file and takes no lock).
    const tells = request.intervalMs > 0 || request.hold > request.now;
    if (!tells) return this.peek(request);
    this.trusted ??= ownFolder(dirname(this.path), true);
    if (!this.trusted) return free(request);
    // Tried at once, then waited for: the lock, the read and the write run without a pause in between, so
    // the requests of this process never wait for each other's lock.
    const first = this.tryLock();
    if (first === "unusable" || (first === "busy" && !(await this.waitForLock()))) return free(request);
    try {
      const fd = openToWrite(this.path);
      try {
        const { turn, state } = takeTurn(boundState(readState(fd), request.now), request, take);
        if (state) writeState(fd, state);
        return turn;
      } finally {
        closeSync(fd);
      }
    } catch {
      return free(request);
    } finally {
      removeQuietly(this.lock);
    }
  }

  private peek(request: TurnRequest): SharedTurn {
    // A stat that finds nothing costs microseconds; an open that fails, an error's stack (ten times that).
    if (!existsSync(this.path)) return free(request);
    try {
      const fd = openToRead(this.path);
      if (fd === undefined) return free(request);
      try {
        this.trusted ??= ownFolder(dirname(this.path), false);
        if (!this.trusted) return free(request);
        return takeTurn(boundState(readState(fd), request.now), request, false).turn;
      } finally {
        closeSync(fd);
      }
    } catch {
      return free(request);
    }
  }

  private tryLock(): "taken" | "busy" | "unusable" {
    try {
      closeSync(openSync(this.lock, "wx", 0o600));
      return "taken";
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return "unusable";
    }
    let age = 0;
    try {
      age = Date.now() - statSync(this.lock).mtimeMs;
    } catch {
      // Released meanwhile.
    }
    // One from the future too: left by a run killed before the clock was set back, it would never age.
    if (Math.abs(age) > STALE_LOCK_MS) removeQuietly(this.lock);
    return "busy";
  }

  private async waitForLock(): Promise<boolean> {
    const started = Date.now();
    for (let wait = 1; Date.now() - started < LOCK_PATIENCE_MS; wait = Math.min(wait * 2, 16)) {
      await sleep(timerDelay(wait));
      const tried = this.tryLock();
      if (tried !== "busy") return tried === "taken";
    }
    return false;
  }
}
