/** The system's reason for a failed open or write, in words a person reads in one line. */

const WORDS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or folder",
  ENOTDIR: "a part of the path is not a folder",
  EACCES: "permission denied",
  EPERM: "operation not permitted (an immutable or append-only file?)",
  EROFS: "read-only file system",
  EISDIR: "is a folder",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EFBIG: "file too large",
  EIO: "input/output error",
  EPIPE: "the reader went away (broken pipe)",
  ENXIO: "no such device, or a named pipe nobody reads",
  ENAMETOOLONG: "file name too long",
  ELOOP: "too many symbolic links",
  ETXTBSY: "the file is a running program",
  EBUSY: "device or resource busy",
  EAGAIN: "the device would block",
  EINVAL: "the target does not accept writes",
};

export function errnoCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/** "read-only file system"; for a code without words, the system's own message. */
export function reasonInWords(error: unknown): string {
  const code = errnoCode(error);
  const words = code === undefined ? undefined : WORDS[code];
  if (words) return words;
  const message = error instanceof Error ? error.message : String(error);
  // Node's messages read "ENOSPC: no space left on device, write": keep the words, drop the syscall.
  return message.replace(/^[A-Z]+: /, "").replace(/, \w+( '.*')?$/, "");
}
