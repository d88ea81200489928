/** Job locks: one holder at a time, even when many runs find the same stale lock at once. */
import { writeFileSync } from "node:fs";
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
});
