/**
 * How a database URL may be shown or remembered: a PostgreSQL URL without its password. In core/, so the
 * commands can label a database (in --help, say) without loading the server.
 */

/** True when `--db` names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** Query parameters node-postgres takes secrets from: ?password=, ?sslpassword=, a client key's path. */
const SECRET_PARAMETER = /pass|secret|key/i;

/** The URL with each secret replaced (`hidden`), or removed (undefined). */
function withoutSecrets(db: string, hidden: string | undefined): string {
  try {
    const url = new URL(db);
    if (url.password !== "") url.password = hidden ?? "";
    for (const name of [...url.searchParams.keys()]) {
      if (!SECRET_PARAMETER.test(name)) continue;
      if (hidden === undefined) url.searchParams.delete(name);
      else url.searchParams.set(name, hidden);
    }
    return url.toString();
  } catch {
    // Not a URL Node can read: show nothing past the scheme, it may hold the password.
    return `${db.slice(0, db.indexOf("://") + 3)}***`;
  }
}

/** `--db` as it may be printed: a URL's password becomes `***`; a path is itself. */
export function databaseLabel(db: string): string {
  return isPostgresUrl(db) ? withoutSecrets(db, "***") : db;
}

/**
 * A PostgreSQL URL as a job remembers it: its secrets left out, so the same database is the same job
 * whether the password comes in the URL or from PGPASSWORD, and a new password keeps the job.
 */
export function databaseIdentity(url: string): string {
  return withoutSecrets(url, undefined);
}
