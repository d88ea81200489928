/** `serve load`: NDJSON files into the database, each file all or nothing. */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { InterruptedError } from "../../core/errors";
import { ConflictError } from "../model/errors";
import { parseLoadLine } from "../model/load-format";
import type { Db } from "../sqlite/open";
import { sqliteOperator } from "../sqlite/operator";
import { FACT_BATCH, type NumberedLine, type OperatorStore } from "./types";

export class LoadError extends Error {
  override readonly name = "LoadError";
}

export interface LoadResult {
  file: string;
  adHours: number;
  keywordHours: number;
}

/**
 * The facts of an NDJSON file in batches, numbered by line; a line that is not one throws LoadError naming
 * it, after the lines before it were handed over (a contradiction among them is reported first).
 */
export async function* readLoadLines(file: string, shown = file, stop?: AbortSignal): AsyncGenerator<NumberedLine[]> {
  const lines = createInterface({
    input: createReadStream(file, { encoding: "utf8" }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let lineNumber = 0;
  let batch: NumberedLine[] = [];
  try {
    for await (const raw of lines) {
      // Thrown into the load's transaction, which is rolled back: nothing of the file is kept.
      if (stop?.aborted) throw new InterruptedError(`${shown}: interrupted; nothing of it was loaded`);
      lineNumber += 1;
      const text = lineNumber === 1 ? raw.replace(/^\uFEFF/, "") : raw;
      if (text.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      const parsed = value === undefined ? undefined : parseLoadLine(value);
      if (!parsed?.ok) {
        if (batch.length > 0) yield batch;
        batch = [];
        throw new LoadError(`${shown}:${lineNumber}: ${parsed ? parsed.message : "not a JSON value"}`);
      }
      batch.push({ line: parsed.line, at: lineNumber });
      if (batch.length >= FACT_BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new LoadError(`${shown}: no such file`);
    if ((error as NodeJS.ErrnoException).code === "EISDIR") throw new LoadError(`${shown}: is a folder`);
    throw error;
  } finally {
    lines.close();
  }
}

/**
 * Loads one NDJSON file into either backend, in one transaction. `shown` names the file in messages (the
 * export a temporary load file was made from). Once `stop` is aborted, the load fails with InterruptedError.
 */
export async function loadNdjsonInto(
  store: OperatorStore,
  file: string,
  shown = file,
  stop?: AbortSignal,
): Promise<LoadResult> {
  try {
    return { file, ...(await store.writeFacts(readLoadLines(file, shown, stop))) };
  } catch (error) {
    if (error instanceof ConflictError) throw new LoadError(`${shown}:${error.at ?? "?"}: ${error.message}`);
    throw error;
  }
}

/** Loads one NDJSON file into an open SQLite database. */
export async function loadNdjsonFile(db: Db, file: string, shown = file): Promise<LoadResult> {
  return await loadNdjsonInto(sqliteOperator(db, shown), file, shown);
}
