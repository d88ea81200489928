/**
 * How `--db` may be shown: a PostgreSQL URL without its password. In core/, so the commands can label a
 * database (in --help, say) without loading the server.
 */

/** True when `--db` names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** `--db` as it may be printed: a URL's password becomes `***`; a path is itself. */
export function databaseLabel(db: string): string {
  if (!isPostgresUrl(db)) return db;
  try {
    const url = new URL(db);
    if (url.password !== "") url.password = "***";
    for (const name of [...url.searchParams.keys()]) {
      if (/pass|secret|key/i.test(name)) url.searchParams.set(name, "***");
    }
    return url.toString();
  } catch {
    // Not a URL Node can read: show nothing past the scheme, it may hold the password.
    return `${db.slice(0, db.indexOf("://") + 3)}***`;
  }
}
