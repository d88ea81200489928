import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One PostgreSQL cluster for the whole run; each file makes its own databases on it.
    globalSetup: ["test/helpers/postgres-global.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here: more workers only make end-to-end cases wait on each other.
    maxWorkers: 2,
  },
});
