/** The operator verbs on a SQLite database: the synchronous functions of keys.ts and writer.ts, one transaction each. */
import type { IssueRequest, NumberedLine, OperatorStore, WriteResult } from "../backend";
import { addIps, issueKey, listKeys, removeIps, revokeKey, rotateKey } from "./keys";
import type { Db } from "./schema";
import { ConflictError, FactWriter } from "./writer";

async function writeFacts(db: Db, lines: Iterable<NumberedLine> | AsyncIterable<NumberedLine>): Promise<WriteResult> {
  const writer = new FactWriter(db);
  const result: WriteResult = { adHours: 0, keywordHours: 0 };
  const write = ({ line, at }: NumberedLine) => {
    try {
      if (line.kind === "ad") {
        writer.writeAdHour(line.fact);
        result.adHours += 1;
      } else {
        writer.writeKeywordHour(line.fact);
        result.keywordHours += 1;
      }
    } catch (error) {
      if (error instanceof ConflictError) error.at = at;
      throw error;
    }
  };
  db.exec("BEGIN IMMEDIATE");
  try {
    // A generated stream (demo) is written without a turn of the event loop a fact.
    if (Symbol.iterator in lines) for (const entry of lines) write(entry);
    else for await (const entry of lines) write(entry);
    writer.finish();
    db.exec("COMMIT");
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  }
  return result;
}

/** Wraps an open SQLite database; `close()` closes it. */
export function sqliteOperator(db: Db, label: string): OperatorStore {
  return {
    label,
    issueKey: async (request: IssueRequest) => issueKey(db, request),
    rotateKey: async (id, now) => rotateKey(db, id, now),
    revokeKey: async (id, now) => revokeKey(db, id, now),
    addIps: async (id, ips) => addIps(db, id, ips),
    removeIps: async (id, ips) => removeIps(db, id, ips),
    listKeys: async (now) => listKeys(db, now),
    writeFacts: (lines) => writeFacts(db, lines),
    close: async () => {
      db.close();
    },
  };
}
