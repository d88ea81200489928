/** The operator verbs on either backend: the key rules (keys.ts) each in one transaction, and the facts. */
import { modelStatus, moveClock, refuseWhileRestating, removeModel, seedModel } from "../restate/restate-rules";
import type { IssueRequest } from "./key-rules";
import { addIps, issueKey, listKeys, removeIps, revokeKey, rotateKey, type SqlRunner } from "./keys";
import type { Steps } from "./steps";
import type { FactBatches, OperatorStore, WriteResult } from "./types";

/** What a backend does for the operator verbs: it runs their statements, in transactions. */
export interface OperatorBackend {
  readonly label: string;
  /** Runs `steps` in one transaction that writes (on PostgreSQL: under the write lock, bumping data_version). */
  write<T>(steps: (db: SqlRunner) => Steps<T>): Promise<T>;
  /** Runs `steps` in one transaction that only reads. */
  read<T>(steps: (db: SqlRunner) => Steps<T>): Promise<T>;
  writeFacts(batches: FactBatches): Promise<WriteResult>;
  close(): Promise<void>;
}

export function operatorStore(backend: OperatorBackend): OperatorStore {
  return {
    label: backend.label,
    issueKey: (request: IssueRequest) => backend.write((db) => issueKey(db, request)),
    rotateKey: (id, now) => backend.write((db) => rotateKey(db, id, now)),
    revokeKey: (id, now) => backend.write((db) => revokeKey(db, id, now)),
    addIps: (id, ips) => backend.write((db) => addIps(db, id, ips)),
    removeIps: (id, ips) => backend.write((db) => removeIps(db, id, ips)),
    listKeys: (now) => backend.read((db) => listKeys(db, now)),
    // Checked before the load's own transaction: a model seeded in between is the operator racing themself.
    writeFacts: async (batches) => {
      await backend.read((db) => refuseWhileRestating(db));
      return backend.writeFacts(batches);
    },
    restate: (request) => backend.write((db) => seedModel(db, request)),
    moveClock: (clock) => backend.write((db) => moveClock(db, clock)),
    removeRestatement: () => backend.write((db) => removeModel(db)),
    restateStatus: () => backend.read((db) => modelStatus(db)),
    close: () => backend.close(),
  };
}
