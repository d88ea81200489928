/**
 * Where an export goes: stdout; a regular file, written atomically; or a character device or named pipe
 * (`/dev/stdout`, a FIFO a loader reads), written into directly: such a target is never replaced by a
 * file, never renamed over, never chmod-ed. An export that must start over (the data changed under it)
 * can, if the sink is an atomic file or nothing has reached the target yet.
 */
import { closeSync, constants, fstatSync, openSync, type Stats } from "node:fs";
import { type FileHandle, open, readlink, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Writable } from "node:stream";
import { AtomicFile } from "./atomic-file";
import { errnoCode } from "./errno-words";
import { SinkError, SinkStream } from "./sink-stream";

export { SinkError } from "./sink-stream";

export interface Sink {
  readonly stream: Writable;
  /** True when what was written so far can be taken back. */
  canRestart(): boolean;
  reset(): Promise<void>;
  /** The export is complete: flush, and for an atomic file, put it in place. Rejects with a SinkError. */
  commit(): Promise<void>;
  /** The export failed: for an atomic file, leave the old one untouched and no temporary file behind. */
  abort(): Promise<void>;
  /** For a signal handler: drop everything without waiting. */
  abortNow(): void;
  /** The first failure to write, if there was one (the error a formatter saw may be a later consequence). */
  failure(): SinkError | undefined;
  readonly description: string;
  /** True for a regular file replaced atomically: on failure the old file is left as it was. */
  readonly atomic: boolean;
}

export const STDOUT_NAME = "standard output";

function endStream(stream: SinkStream): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    stream.once("error", reject);
    stream.end(() => resolve());
  });
}

/** `beforeFirstWrite` lets a progress display leave the terminal before data lands on it. */
export function stdoutSink(out: Writable, beforeFirstWrite: () => void = () => undefined): Sink {
  return streamSink(out, STDOUT_NAME, beforeFirstWrite, async () => undefined);
}

/** A target written as it goes: what reached it cannot be taken back. */
function streamSink(target: Writable, name: string, beforeFirstWrite: () => void, close: () => Promise<void>): Sink {
  const stream = new SinkStream(target, name, beforeFirstWrite);
  stream.on("error", () => undefined);
  return {
    stream,
    description: name,
    atomic: false,
    canRestart: () => stream.bytes === 0,
    reset: async () => undefined,
    commit: async () => {
      try {
        await endStream(stream);
      } finally {
        await close();
      }
      if (stream.failed) throw stream.failed;
    },
    abort: async () => {
      stream.destroy();
      await close().catch(() => undefined);
    },
    abortNow: () => stream.destroy(),
    failure: () => stream.failed,
  };
}

/**
 * `-o PATH`: a folder, a block device or a socket is refused; a character device, a named pipe, or an
 * already open descriptor (`/dev/stdout`, `/dev/fd/3`) is written into directly; anything else is a
 * regular file, replaced atomically. Rejects with a SinkError naming the path and the reason.
 */
export async function fileSink(
  path: string,
  stdout?: { out: Writable; beforeFirstWrite?: () => void },
  signal?: AbortSignal,
): Promise<Sink> {
  const existing = await checkOutputTarget(path);
  // `-o /dev/stdout`: standard output under another name (a socket cannot even be opened by name).
  if (existing && stdout && isOurStdout(existing)) return stdoutSink(stdout.out, stdout.beforeFirstWrite);
  if (existing && (!existing.isFile() || (await isOpenDescriptor(path))))
    return directSink(path, existing.isFile(), signal);
  return atomicSink(path);
}

function isOurStdout(target: Stats): boolean {
  try {
    const stdout = fstatSync(1);
    return stdout.dev === target.dev && stdout.ino === target.ino;
  } catch {
    return false; // no descriptor 1 at all
  }
}

/**
 * What is at PATH now (undefined: nothing yet); rejects with a SinkError for a target no export goes
 * into. Cheap, so a command can check it before anything else.
 */
export async function checkOutputTarget(path: string): Promise<Stats | undefined> {
  const existing = await stat(path).catch((error: unknown) => {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw SinkError.from(path, error);
  });
  if (existing?.isDirectory()) throw new SinkError(path, "is a folder", { code: "EISDIR" });
  if (existing?.isBlockDevice()) throw new SinkError(path, "is a block device (a disk), not a file to export into");
  if (existing?.isSocket() && !isOurStdout(existing))
    throw new SinkError(path, "is a socket, not a file to export into");
  return existing;
}

/**
 * `/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`: a descriptor someone opened for us (`> out.csv`); the
 * file behind it is theirs to name, so it is written through, not replaced. Follows the links one by one:
 * resolving them all would land on the file itself.
 */
async function isOpenDescriptor(path: string): Promise<boolean> {
  let current = resolve(path);
  for (let hop = 0; hop < 8; hop += 1) {
    if (current.startsWith("/proc/") || current.startsWith("/dev/fd/")) return true;
    const link = await readlink(current).catch(() => undefined);
    if (link === undefined) return false;
    current = resolve(dirname(current), link);
  }
  return false;
}

async function directSink(path: string, regular: boolean, signal: AbortSignal | undefined): Promise<Sink> {
  // No O_CREAT: if the target went away since it was looked at, this fails rather than creating a file.
  // A regular file reached through a descriptor link is appended to, as the shell's `>`/`>>` left it.
  const flags = constants.O_WRONLY | constants.O_NOCTTY | (regular ? constants.O_APPEND : 0);
  // A named pipe: the open waits until a reader opens it, in a thread nothing can cancel. Stopped meanwhile
  // (Ctrl-C), this process is that reader for a moment, which lets the open return.
  const releaseOpen = () => {
    try {
      closeSync(openSync(path, constants.O_RDONLY | constants.O_NONBLOCK));
    } catch {
      // not a named pipe, or gone: nothing waits
    }
  };
  signal?.addEventListener("abort", releaseOpen, { once: true });
  let handle: FileHandle;
  try {
    handle = await open(path, flags);
  } catch (error) {
    throw SinkError.from(path, error);
  } finally {
    signal?.removeEventListener("abort", releaseOpen);
  }
  if (signal?.aborted) {
    await handle.close();
    throw signal.reason;
  }
  const target = handle.createWriteStream({ autoClose: false });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    target.destroy();
    await handle.close();
  };
  return streamSink(target, path, () => undefined, close);
}

async function atomicSink(path: string): Promise<Sink> {
  let file: AtomicFile;
  try {
    file = await AtomicFile.create(path);
  } catch (error) {
    throw await createFailure(path, error);
  }
  let stream = new SinkStream(file.stream, path);
  stream.on("error", () => undefined);
  return {
    get stream() {
      return stream;
    },
    description: path,
    atomic: true,
    canRestart: () => true,
    reset: async () => {
      stream.destroy();
      try {
        await file.reset();
      } catch (error) {
        throw await createFailure(path, error);
      }
      stream = new SinkStream(file.stream, path);
      stream.on("error", () => undefined);
    },
    commit: async () => {
      try {
        await endStream(stream);
        await file.commit();
      } catch (error) {
        throw SinkError.from(path, stream.failed ?? error);
      }
    },
    abort: async () => {
      stream.destroy();
      await file.abort();
    },
    abortNow: () => {
      stream.destroy();
      file.abortNow();
    },
    failure: () => stream.failed,
  };
}

/** The temporary file beside PATH could not be created: say whether the folder is missing or refuses files. */
async function createFailure(path: string, error: unknown): Promise<SinkError> {
  if (errnoCode(error) !== "ENOENT") return SinkError.from(path, error);
  const folderExists = await stat(dirname(path)).then(
    (s) => s.isDirectory(),
    () => false,
  );
  return new SinkError(path, folderExists ? "the folder does not accept new files" : "no such folder", {
    code: "ENOENT",
    cause: error,
  });
}
