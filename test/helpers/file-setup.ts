/** vitest's setupFiles: runs for every test file (test/helpers/after-file.ts says why). */
import { afterAll } from "vitest";
import { runFileCleanups } from "./after-file";

afterAll(runFileCleanups);
