/**
 * The sink's stream and writeChunk against a target that fails like a full disk: a failure is never lost,
 * whichever write met it, and nothing waits for a `drain` that cannot come.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { reasonInWords } from "../../../src/io/errno-words";
import { fileSink } from "../../../src/io/file-sink";
import { stdoutSink } from "../../../src/io/sink";
import { writeChunk } from "../../../src/io/write";
import { tempDir } from "../../helpers/temp";

function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
}

/** Takes `room` bytes, then fails every write with ENOSPC, as a disk that fills up does. */
class FillingTarget extends Writable {
  received = "";
  constructor(private room: number) {
    super({ highWaterMark: 64 });
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (chunk.length > this.room) {
      setImmediate(() => callback(enospc()));
      return;
    }
    this.room -= chunk.length;
    this.received += chunk.toString();
    setImmediate(() => callback());
  }
}

describe("the sink's stream", () => {
  it("a failure on the last write, accepted at the time, is reported by commit", async () => {
    const target = new FillingTarget(10);
    const sink = stdoutSink(target);
    await writeChunk(sink.stream, "12345");
    await writeChunk(sink.stream, "6789012345"); // small enough to be accepted; fails afterwards
    await expect(sink.commit()).rejects.toThrow("cannot write standard output: no space left on device");
    expect(sink.failure()?.code).toBe("ENOSPC");
  });

  it("a failure in the middle makes a write reject, with the reason in words", async () => {
    const target = new FillingTarget(100_000);
    const sink = stdoutSink(target);
    const page = "x".repeat(20_000); // a page is larger than the stream's buffer: each write waits
    const writes = async () => {
      for (let i = 0; i < 10; i += 1) await writeChunk(sink.stream, page);
    };
    await expect(writes()).rejects.toThrow("cannot write standard output: no space left on device");
    expect(target.received).toHaveLength(100_000);
  });

  it("writeChunk on a stream destroyed meanwhile rejects instead of waiting for ever", async () => {
    const stalled = new Writable({ highWaterMark: 1, write: () => undefined }); // never calls back
    const pending = writeChunk(stalled, "more than one byte");
    stalled.destroy();
    await expect(pending).rejects.toThrow();
    await expect(writeChunk(stalled, "again")).rejects.toThrow();
  });

  it("counts what reached the target: stdout can restart only before the first byte", async () => {
    const sink = stdoutSink(new FillingTarget(1000));
    expect(sink.canRestart()).toBe(true);
    await writeChunk(sink.stream, "a");
    expect(sink.canRestart()).toBe(false);
    await sink.commit();
  });
});

describe("a regular file", () => {
  it("is replaced atomically: reset starts over, commit puts it in place, nothing else is left", async () => {
    const dir = tempDir();
    const target = join(dir, "out.csv");
    writeFileSync(target, "old\n");
    const sink = await fileSink(target, "/");
    expect(sink.atomic).toBe(true);
    await writeChunk(sink.stream, "first try\n");
    await sink.reset();
    await writeChunk(sink.stream, "second try\n");
    expect(readFileSync(target, "utf8")).toBe("old\n");
    await sink.commit();
    expect(readFileSync(target, "utf8")).toBe("second try\n");
    expect(readdirSync(dir)).toEqual(["out.csv"]);
  });

  it("an export given up with writes still pending is no write failure", async () => {
    const dir = tempDir();
    const sink = await fileSink(join(dir, "out.csv"), "/");
    void writeChunk(sink.stream, "x".repeat(1 << 20)).catch(() => undefined);
    await sink.abort();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sink.failure()).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a relative path is the command's folder's, and messages name it as typed", async () => {
    const dir = tempDir();
    const sink = await fileSink("out.csv", dir);
    await writeChunk(sink.stream, "rows\n");
    await sink.commit();
    expect(readFileSync(join(dir, "out.csv"), "utf8")).toBe("rows\n");
    await expect(fileSink(join("missing", "out.csv"), dir)).rejects.toThrow(
      `cannot write ${join("missing", "out.csv")}: no such folder`,
    );
    mkdirSync(join(dir, "folder"));
    await expect(fileSink("folder", dir)).rejects.toThrow("cannot write folder: is a folder");
  });

  it("says which: a missing folder, a folder, a path through a file", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "folder"));
    writeFileSync(join(dir, "file"), "");
    for (const [path, reason] of [
      [join(dir, "missing", "out.csv"), "no such folder"],
      [join(dir, "folder"), "is a folder"],
      [join(dir, "file", "out.csv"), "a part of the path is not a folder"],
    ] as const) {
      await expect(fileSink(path, "/")).rejects.toThrow(`cannot write ${path}: ${reason}`);
    }
  });
});

describe("reasons in words", () => {
  it("names the common failures, and keeps the system's words for the rest", () => {
    const error = (code: string, message: string) => Object.assign(new Error(message), { code });
    expect(reasonInWords(error("EROFS", "EROFS: read-only file system, open '/x'"))).toBe("read-only file system");
    expect(reasonInWords(error("EACCES", "EACCES: permission denied, open '/x'"))).toBe("permission denied");
    expect(reasonInWords(error("EISDIR", "EISDIR: illegal operation on a directory, rename"))).toBe("is a folder");
    expect(reasonInWords(error("EWHATEVER", "EWHATEVER: something odd happened, write"))).toBe(
      "something odd happened",
    );
  });
});
