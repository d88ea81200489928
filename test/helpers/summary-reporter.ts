/**
 * A vitest reporter for scripts/test.mjs (`npm test`): writes what the run counted to the JSON file named
 * by ADREPORT_TEST_SUMMARY, so the last line can say how many cases passed, failed and were skipped, and
 * why each was skipped (the note of `context.skip(note)`). A test file that failed to load (no case ran)
 * and an error outside any case count as failures.
 */
import { writeFileSync } from "node:fs";
import type { SerializedError } from "vitest";
import type { Reporter, TestModule } from "vitest/node";

export interface SkippedCase {
  file: string;
  name: string;
  /** The reason given to context.skip(), if any. */
  note: string | undefined;
  tags: readonly string[];
}

export interface RunSummary {
  passed: number;
  failed: number;
  skipped: SkippedCase[];
  /** Files that failed outside their cases (an import, a hook), and unhandled errors. */
  otherFailures: string[];
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const out = process.env.ADREPORT_TEST_SUMMARY;
    if (!out) return;
    const summary: RunSummary = { passed: 0, failed: 0, skipped: [], otherFailures: [] };
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === "passed") summary.passed += 1;
        else if (result.state === "failed") summary.failed += 1;
        else if (result.state === "skipped")
          summary.skipped.push({
            file: module.relativeModuleId,
            name: test.fullName,
            note: result.note,
            tags: test.tags,
          });
        // A case still pending at the end never ran to a verdict: a failure, not a pass.
        else summary.failed += 1;
      }
      if (module.errors().length > 0) summary.otherFailures.push(module.relativeModuleId);
    }
    for (const error of unhandledErrors) summary.otherFailures.push(`unhandled error: ${error.message}`);
    writeFileSync(out, JSON.stringify(summary));
  }
}
