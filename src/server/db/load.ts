/** `serve load`: NDJSON files into the database, each file all or nothing. */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { parseLoadLine } from "./load-format";
import type { Db } from "./schema";
import { ConflictError, FactWriter } from "./writer";

export class LoadError extends Error {
  override readonly name = "LoadError";
}

export interface LoadResult {
  file: string;
  adHours: number;
  keywordHours: number;
}

/** `shown` names the file in messages (the export a temporary load file was made from). */
export async function loadNdjsonFile(db: Db, file: string, shown = file): Promise<LoadResult> {
  const writer = new FactWriter(db);
  const result: LoadResult = { file, adHours: 0, keywordHours: 0 };
  const lines = createInterface({
    input: createReadStream(file, { encoding: "utf8" }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let lineNumber = 0;
  db.exec("BEGIN IMMEDIATE");
  try {
    for await (const raw of lines) {
      lineNumber += 1;
      const text = lineNumber === 1 ? raw.replace(/^\uFEFF/, "") : raw;
      if (text.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new LoadError(`${shown}:${lineNumber}: not a JSON value`);
      }
      const parsed = parseLoadLine(value);
      if (!parsed.ok) throw new LoadError(`${shown}:${lineNumber}: ${parsed.message}`);
      try {
        if (parsed.line.kind === "ad") {
          writer.writeAdHour(parsed.line.fact);
          result.adHours += 1;
        } else {
          writer.writeKeywordHour(parsed.line.fact);
          result.keywordHours += 1;
        }
      } catch (error) {
        if (error instanceof ConflictError) throw new LoadError(`${shown}:${lineNumber}: ${error.message}`);
        throw error;
      }
    }
    writer.finish();
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    lines.close();
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new LoadError(`${shown}: no such file`);
    if ((error as NodeJS.ErrnoException).code === "EISDIR") throw new LoadError(`${shown}: is a folder`);
    throw error;
  }
  return result;
}
