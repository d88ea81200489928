/**
 * Replacing a file (replace-file.ts and its users): the temporary file is synced, renamed over the target,
 * and then the folder itself is synced through a descriptor of that folder, so the rename is on the disk
 * when commit resolves. The calls are watched through the injected ReplaceFs, which passes every call on to
 * the real file system: the fsyncs here are real ones on real descriptors.
 */
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AtomicFile } from "../../../src/io/atomic-file";
import { writePrivateFile } from "../../../src/io/private-file";
import { openRecordingFolder } from "../../../src/io/recording-folder";
import { nodeReplaceFs, type ReplaceFs } from "../../../src/io/replace-file";
import { StagedFile } from "../../../src/io/staged-file";
import { tempDir } from "../../helpers/temp";

type Call = { op: "sync" | "rename"; path: string; folder?: boolean; to?: string };

/** The real file system, noting each fsync (with whether its descriptor is a folder's) and each rename. */
function watchedFs(overrides: Partial<ReplaceFs> = {}): { fs: ReplaceFs; calls: Call[] } {
  const calls: Call[] = [];
  const open = (async (path: string, flags?: string, mode?: number) => {
    const handle: FileHandle = await nodeReplaceFs.open(path, flags, mode);
    const sync = handle.sync.bind(handle);
    handle.sync = async () => {
      const folder = (await handle.stat()).isDirectory();
      await sync();
      calls.push({ op: "sync", path, folder });
    };
    return handle;
  }) as ReplaceFs["open"];
  const rename = (async (from: string, to: string) => {
    await nodeReplaceFs.rename(from, to);
    calls.push({ op: "rename", path: String(from), to: String(to) });
  }) as ReplaceFs["rename"];
  return { fs: { ...nodeReplaceFs, open, rename, ...overrides }, calls };
}

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

/** sync of the temporary file, its rename over `target`, then sync of the target's folder: in that order. */
function expectDurableCommit(calls: Call[], dir: string, target: string): void {
  expect(calls.map((c) => `${c.op}${c.folder ? " folder" : ""}`)).toEqual(["sync", "rename", "sync folder"]);
  const [synced, renamed, folder] = calls as [Call, Call, Call];
  expect(synced.path).toBe(renamed.path);
  expect(renamed.path).toMatch(new RegExp(`/\\.${target.replace(".", "\\.")}\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
  expect(renamed.to).toBe(join(dir, target));
  expect(folder.path).toBe(dir);
}

describe("replacing a file", () => {
  it("an atomic file syncs itself, renames over the target, then syncs the folder", async () => {
    const dir = tempDir();
    const { fs, calls } = watchedFs();
    const file = await AtomicFile.create(join(dir, "out.csv"), fs);
    file.stream.write("a,b\n");
    await file.commit();
    expectDurableCommit(calls, dir, "out.csv");
    expect(readFileSync(join(dir, "out.csv"), "utf8")).toBe("a,b\n");
    expect(readdirSync(dir)).toEqual(["out.csv"]);
  });

  it("a staged file does the same on commit, and keeps the replaced file's permissions", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "2026-11-01.csv"), "old\n");
    chmodSync(join(dir, "2026-11-01.csv"), 0o640);
    const { fs, calls } = watchedFs();
    const staged = await StagedFile.create(join(dir, "2026-11-01.csv"), fs);
    staged.stream.write("new\n");
    await staged.finish();
    await staged.commit();
    expectDurableCommit(calls, dir, "2026-11-01.csv");
    expect(statSync(join(dir, "2026-11-01.csv")).mode & 0o777).toBe(0o640);
    expect(readFileSync(join(dir, "2026-11-01.csv"), "utf8")).toBe("new\n");
  });

  it("a private file (state, config) is 0600 and durable the same way", async () => {
    const dir = tempDir();
    const { fs, calls } = watchedFs();
    await writePrivateFile(join(dir, "state.json"), "{}\n", fs);
    expectDurableCommit(calls, dir, "state.json");
    expect(statSync(join(dir, "state.json")).mode & 0o777).toBe(0o600);
  });

  it("a system that cannot sync a folder still gets the file in place", async () => {
    for (const code of ["EISDIR", "EPERM", "EINVAL"]) {
      const dir = tempDir();
      const { fs } = watchedFs({
        open: (async (path: string, flags?: string, mode?: number) => {
          if (path === dir) throw errno(code);
          return nodeReplaceFs.open(path, flags, mode);
        }) as ReplaceFs["open"],
      });
      await writePrivateFile(join(dir, "state.json"), "{}\n", fs);
      expect(readFileSync(join(dir, "state.json"), "utf8")).toBe("{}\n");
    }
  });

  it("a disk that fails the folder's sync fails the commit: the rename is not known to be on the disk", async () => {
    const dir = tempDir();
    const { fs } = watchedFs({
      open: (async (path: string, flags?: string, mode?: number) => {
        const handle = await nodeReplaceFs.open(path, flags, mode);
        if (path === dir) handle.sync = async () => Promise.reject(errno("EIO"));
        return handle;
      }) as ReplaceFs["open"],
    });
    const file = await AtomicFile.create(join(dir, "out.csv"), fs);
    file.stream.write("x\n");
    await expect(file.commit()).rejects.toMatchObject({ code: "EIO" });
  });

  it("a failed write leaves neither the new file nor a temporary one", async () => {
    const dir = tempDir();
    const { fs } = watchedFs({ rename: (async () => Promise.reject(errno("EXDEV"))) as ReplaceFs["rename"] });
    await expect(writePrivateFile(join(dir, "state.json"), "{}\n", fs)).rejects.toMatchObject({ code: "EXDEV" });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a recording's files are whole, 0600, with no temporary file left", () => {
    const dir = tempDir();
    const folder = openRecordingFolder(join(dir, "rec"), dir);
    folder.write("0001.json", "{}");
    folder.write("0001.json", '{"a":1}');
    expect(readdirSync(join(dir, "rec"))).toEqual(["0001.json"]);
    expect(readFileSync(join(dir, "rec", "0001.json"), "utf8")).toBe('{"a":1}');
    expect(statSync(join(dir, "rec", "0001.json")).mode & 0o777).toBe(0o600);
  });
});
