/** The operator verbs on a SQLite database: the synchronous functions of keys.ts and writer.ts, one transaction each. */
import type { FactBatches, IssueRequest, NumberedLine, OperatorStore, WriteResult } from "../backend";
import { addIps, issueKey, listKeys, removeIps, revokeKey, rotateKey } from "./keys";
import type { Db } from "./schema";
import { ConflictError, FactWriter } from "./writer";

async function writeFacts(db: Db, batches: FactBatches): Promise<WriteResult> {
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
    for await (const batch of batches) for (const entry of batch) write(entry);
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
    writeFacts: (batches) => writeFacts(db, batches),
    close: async () => {
      db.close();
    },
  };
}
