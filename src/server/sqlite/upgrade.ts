/** `serve upgrade` on a SQLite file: the steps of sql/schema-version.ts in one immediate transaction. */
import { DatabaseError } from "../model/errors";
import { SQLITE_DIALECT } from "../sql/dialect";
import { upgradeStatements } from "../sql/schema-version";
import { schemaRefusal } from "../store/schema-refusal";
import type { UpgradeResult } from "../store/types";
import { layoutOf, type NativeBinding, notAdreportDatabase, open } from "./open";

export function upgradeSqlite(path: string, nativeBinding?: NativeBinding): UpgradeResult {
  const db = open(path, { fileMustExist: true }, nativeBinding);
  try {
    db.pragma("foreign_keys = ON");
    // Decided and done under one write lock: a second upgrade at the same time finds nothing left to do.
    return db
      .transaction((): UpgradeResult => {
        const state = layoutOf(db);
        if (state.kind === "current") return { upgraded: false };
        if (state.kind !== "older") throw schemaRefusal(state, path) ?? notAdreportDatabase(path);
        for (const statement of upgradeStatements(state, SQLITE_DIALECT)) db.exec(statement);
        return { upgraded: true, from: state.version, missing: state.missing };
      })
      .immediate();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") throw notAdreportDatabase(path);
    if (typeof code === "string" && code.startsWith("SQLITE_")) {
      throw new DatabaseError(`cannot upgrade ${path}: ${(error as Error).message}; nothing of it was kept`);
    }
    throw error;
  } finally {
    db.close();
  }
}
