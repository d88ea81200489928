/** Job locks: one holder at a time, even when many runs find the same stale lock at once. */
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { takeLock } from "../../../src/io/lock-file";
import { tempDir } from "../../helpers/temp";

describe("takeLock", () => {
  it("a stale lock found by many runs at once is taken over by one of them (several took it)", async () => {
    for (let round = 0; round < 20; round += 1) {
      const path = join(tempDir(), "job.lock");
      writeFileSync(path, "2147483646\n"); // a pid that runs nowhere
      const results = await Promise.all(Array.from({ length: 8 }, () => takeLock(path)));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
    }
  });

  it("an empty lock is a run between creating it and writing its pid: refused while fresh (two held it)", async () => {
    const path = join(tempDir(), "job.lock");
    writeFileSync(path, "");
    const result = await takeLock(path);
    expect(result.ok).toBe(false);
  });

  it("an empty lock left long ago (a run killed before it wrote its pid) is taken over", async () => {
    const path = join(tempDir(), "job.lock");
    writeFileSync(path, "");
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(path, minuteAgo, minuteAgo);
    const result = await takeLock(path);
    expect(result.ok).toBe(true);
    if (result.ok) await result.release();
  });
});
