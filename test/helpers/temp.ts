import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEachFile } from "./after-file";

const dirs = new Set<string>();
// After every test file (test/helpers/after-file.ts): its temporary folders go after the file.
afterEachFile(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
});

/** A temporary folder removed after the test file. */
export function tempDir(prefix = "adreport-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

// As the worker started: a case may point TMPDIR at a folder of its own for a while.
const systemTemp = tmpdir();
let kept: string | undefined;
/** A folder for this worker process's whole life, removed when it exits (test files come and go). */
export function workerTempDir(): string {
  if (kept === undefined) {
    const dir = mkdtempSync(join(systemTemp, "adreport-worker-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    kept = dir;
  }
  return kept;
}
