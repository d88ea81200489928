/**
 * A SQLite file of `serve` (its layout is sql/ddl.ts): opened for the operator verbs, created when asked,
 * or read-only for `serve`, and refused when it is not an adreport database of this version.
 */
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { DatabaseError } from "../model/errors";
import { createStatements } from "../sql/ddl";
import { SQLITE_DIALECT } from "../sql/dialect";
import { NEW_SCHEMA_INFO, SCHEMA_INFO_SQL, type SchemaState, schemaState } from "../sql/schema-version";
import { schemaRefusal } from "../store/schema-refusal";

export type Db = Database.Database;

/**
 * The better-sqlite3 addon, when the program brings its own (the single-file binary loads it from an
 * embedded asset); undefined loads it from node_modules as usual.
 */
export type NativeBinding = object | undefined;

/** Opens a database the operator verbs write to, creating its tables when `create` is set. */
export function openForWriting(path: string, options: { create: boolean; nativeBinding?: NativeBinding }): Db {
  const db = open(path, { fileMustExist: !options.create }, options.nativeBinding);
  const advice = options.create ? "adreport leaves it as it is; give --db a new file" : undefined;
  try {
    db.pragma("foreign_keys = ON");
    db.pragma("synchronous = NORMAL");
    // A database with tables but none of ours is another program's: creating ours in it would change it.
    if (options.create && !hasTables(db)) {
      db.exec(createStatements(SQLITE_DIALECT));
      const info = db.prepare<[string, string]>("INSERT OR IGNORE INTO schema_info (key, value) VALUES (?, ?)");
      for (const [key, value] of NEW_SCHEMA_INFO) info.run(key, value);
    }
  } catch (error) {
    db.close();
    // SQLite opens any file lazily and finds out it is not a database only at the first statement.
    const code = (error as { code?: unknown }).code;
    if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") throw notAdreportDatabase(path, advice);
    // Anything else SQLite says of the file (a device such as /dev/null, a full disk, no permission) is
    // about the path the operator gave, not a bug.
    if (typeof code === "string" && code.startsWith("SQLITE_")) {
      throw new DatabaseError(`cannot use ${path} as a database: ${(error as Error).message}`);
    }
    throw error;
  }
  checkVersion(db, path, advice);
  return db;
}

function hasTables(db: Db): boolean {
  return db.prepare("SELECT count(*) FROM sqlite_schema").pluck().get() !== 0;
}

export function notAdreportDatabase(path: string, advice = "create one with `adreport serve init`"): DatabaseError {
  return new DatabaseError(`${path} is not an adreport database (${advice})`);
}

/**
 * What SQLite may hold for `serve` outside `--cache-mb`: its page cache, and as much again for a sort before
 * it spills to a temporary file (1 MB at least). This build's default is 16 MB (and a sort as much), which
 * `serve`'s documented memory margin did not count; at 4 MB, a flood of distinct reports peaked 2-3 MB
 * higher than at 1 MB (bench/serve-abuse.ts). The file's pages stay in the system's cache either way.
 */
export const SERVE_PAGE_CACHE_KB = 1024;

/** Opens a database for `serve`: read-only, so serving never changes a byte of it. */
export function openForReading(path: string, nativeBinding?: NativeBinding): Db {
  const db = open(path, { readonly: true, fileMustExist: true }, nativeBinding);
  checkVersion(db, path);
  db.pragma(`cache_size = -${SERVE_PAGE_CACHE_KB}`);
  return db;
}

export function open(path: string, options: Database.Options, nativeBinding: NativeBinding): Db {
  if (options.fileMustExist && !existsSync(path)) {
    throw new DatabaseError(`there is no database at ${path} (create one with \`adreport serve init --db ${path}\`)`);
  }
  try {
    // The typings take the addon as a path only; the library also takes the loaded addon object.
    return new Database(
      path,
      nativeBinding === undefined ? options : { ...options, nativeBinding: nativeBinding as unknown as string },
    );
  } catch (error) {
    throw new DatabaseError(`cannot open ${path}: ${(error as Error).message}`);
  }
}

/** What the database's schema_info says of its layout (a file without one is foreign). */
export function layoutOf(db: Db): SchemaState {
  try {
    return schemaState(db.prepare<[], { key: string; value: string }>(SCHEMA_INFO_SQL).all());
  } catch {
    return { kind: "foreign" };
  }
}

function checkVersion(db: Db, path: string, advice?: string): void {
  const state = layoutOf(db);
  if (state.kind === "current") return;
  db.close();
  throw schemaRefusal(state, path) ?? notAdreportDatabase(path, advice);
}
