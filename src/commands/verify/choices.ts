/**
 * What `verify`'s flags choose, read once: where its result goes (-o FILE, -f) and a PostgreSQL job's
 * database (--db; `-o postgres://...` is read as --db, as `--output URL` always was before -o wrote the result).
 */
import { UsageError } from "../../core/errors";
import { isDatabaseOutput } from "../../engine/plan/output-spec";
import type { VerifyOptions } from "./flags";

export interface VerifyChoices {
  /** -o: a file, device or `-` for the result; undefined: stdout. */
  result: string | undefined;
  format: "text" | "json";
  db: string | undefined;
}

export function verifyChoices(options: VerifyOptions): VerifyChoices {
  const { output } = options;
  if (isDatabaseOutput(output)) {
    if (options.db !== undefined) {
      throw new UsageError("-o names a database and --db another: name the job's database once, with --db");
    }
    return { result: undefined, format: options.format ?? "text", db: output };
  }
  const format = options.format ?? (output?.toLowerCase().endsWith(".json") === true ? "json" : "text");
  return { result: output, format, db: options.db };
}
