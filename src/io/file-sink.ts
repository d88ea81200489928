/**
 * `-o PATH`: a regular file is written atomically (a temporary file beside it, renamed over it on
 * commit); a character device, a named pipe or an already open descriptor is written into directly, and
 * is never replaced by a file, renamed over or chmod-ed. PATH is as the user typed it, for messages; the
 * file is found relative to `cwd`, the command's folder.
 */
import { closeSync, constants, openSync } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Writable } from "node:stream";
import { AtomicFile } from "./atomic-file";
import { errnoCode } from "./errno-words";
import { checkOutputTarget, isOpenDescriptor, isOurStdout } from "./output-target";
import { endStream, type Sink, stdoutSink, streamSink, watchedStream } from "./sink";
import { SinkError } from "./sink-stream";

/**
 * A folder, a block device or a socket is refused; a character device, a named pipe, or an already open
 * descriptor (`/dev/stdout`, `/dev/fd/3`) is written into directly; anything else is a regular file,
 * replaced atomically. Rejects with a SinkError naming the path and the reason.
 */
export async function fileSink(
  path: string,
  cwd: string,
  stdout?: { out: Writable; beforeFirstWrite?: () => void },
  signal?: AbortSignal,
): Promise<Sink> {
  const where = resolve(cwd, path);
  const existing = await checkOutputTarget(path, cwd);
  // `-o /dev/stdout`: standard output under another name (a socket cannot even be opened by name).
  if (existing && stdout && isOurStdout(existing)) return stdoutSink(stdout.out, stdout.beforeFirstWrite);
  if (existing && (!existing.isFile() || (await isOpenDescriptor(where))))
    return directSink(path, where, existing.isFile(), signal);
  return atomicSink(path, where);
}

async function directSink(
  path: string,
  where: string,
  regular: boolean,
  signal: AbortSignal | undefined,
): Promise<Sink> {
  // No O_CREAT: if the target went away since it was looked at, this fails rather than creating a file.
  // A regular file reached through a descriptor link is appended to, as the shell's `>`/`>>` left it.
  const flags = constants.O_WRONLY | constants.O_NOCTTY | (regular ? constants.O_APPEND : 0);
  // A named pipe: the open waits until a reader opens it, in a thread nothing can cancel. Stopped meanwhile
  // (Ctrl-C), this process is that reader for a moment, which lets the open return.
  const releaseOpen = () => {
    try {
      closeSync(openSync(where, constants.O_RDONLY | constants.O_NONBLOCK));
    } catch {
      // not a named pipe, or gone: nothing waits
    }
  };
  signal?.addEventListener("abort", releaseOpen, { once: true });
  let handle: FileHandle;
  try {
    handle = await open(where, flags);
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

async function atomicSink(path: string, where: string): Promise<Sink> {
  let file: AtomicFile;
  try {
    file = await AtomicFile.create(where);
  } catch (error) {
    throw await createFailure(path, where, error);
  }
  let stream = watchedStream(file.stream, path);
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
        throw await createFailure(path, where, error);
      }
      stream = watchedStream(file.stream, path);
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
async function createFailure(path: string, where: string, error: unknown): Promise<SinkError> {
  if (errnoCode(error) !== "ENOENT") return SinkError.from(path, error);
  const folderExists = await stat(dirname(where)).then(
    (s) => s.isDirectory(),
    () => false,
  );
  return new SinkError(path, folderExists ? "the folder does not accept new files" : "no such folder", {
    code: "ENOENT",
    cause: error,
  });
}
