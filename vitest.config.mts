import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One PostgreSQL cluster for the whole run; each file makes its own databases on it.
    globalSetup: ["test/helpers/postgres-global.ts"],
    // Each helper's cleanup after every test file (servers, processes, temporary folders).
    setupFiles: ["test/helpers/file-setup.ts"],
    // `npm test` runs the cases tagged so a second time, against the single-file binary (docs/development.md).
    tags: [{ name: "binary", description: "shows what only the single-file binary can get wrong; run against it too" }],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A worker that ran many files (isolate: false) took over vitest's 10 s to stop once, on a loaded machine,
    // and vitest said "Timeout terminating forks worker": it still says so past 30 s.
    teardownTimeout: 30_000,
    // Test files share a worker's loaded modules instead of loading them again for each file: a quarter of the
    // suite's CPU time. A file must leave nothing behind (its helpers clean up after it: test/helpers/after-file.ts).
    isolate: false,
    // The suite mostly waits (servers, timers, PostgreSQL): a third worker fills those waits; a fourth was no faster.
    maxWorkers: 3,
  },
});
