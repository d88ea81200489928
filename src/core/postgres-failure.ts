/**
 * What a PostgreSQL driver error means to the person running adreport, said once for the table targets
 * (`report -o postgres://`, `verify`) and for `serve --db postgres://`: the reason in our words and what to
 * do. It reads only the error's code and message, so core/ loads no driver.
 */

export interface PostgresFailure {
  /** The server, or the way to it, failed (refused, reset, shut down, too busy): worth trying again. */
  unreachable: boolean;
  /** The connection's setup (password, role, database, schema, name) is the operator's to fix. */
  setup: boolean;
  /** One line, no password (node-postgres never puts one in a message). */
  reason: string;
  hint?: string;
}

/**
 * SQLSTATEs of a server going away or too busy: 08 connection exception, 57P admin/crash shutdown,
 * 57014 a statement cancelled (by statement_timeout), 53 insufficient resources (too many connections).
 */
const GONE_STATES = /^(08|57P|57014|53)/;
/** EAI_AGAIN: the name cannot be resolved now (DNS down), unlike ENOTFOUND (no such name). */
const GONE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
/** 28: authorisation; 3D000: no such database; 42501: no privilege; 3F000: no such schema; a host name unknown. */
const SETUP_STATES = /^(28|3D|3F|42501|ENOTFOUND)/;
/**
 * The server asked for a password and there was none: node-postgres says so for SCRAM, the server for a
 * clear-text exchange. (For MD5 the driver sends a hash of nothing, and the server says 28P01.)
 */
const NO_PASSWORD = /client password must be a (non-empty )?string|empty password returned by client/i;
const WRONG_PASSWORD = "28P01";

export const PASSWORD_HINT =
  "give the password in PGPASSWORD, in ~/.pgpass (host:port:database:user:password, mode 0600), or in the URL (postgres://USER:PASSWORD@HOST/DB)";

/** The hint for a database whose tables are not in the schema the URL's search_path names first. */
export const SCHEMA_HINT =
  "if its tables are in another schema, name it in the URL: ?options=-c%20search_path%3DSCHEMA (postgres://USER@HOST/DB?options=-c%20search_path%3Dads)";

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? "";
}

/** True when the error says the server (or the way to it) failed, rather than the statement. */
function isConnectionFailure(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined && (GONE_CODES.has(code) || GONE_STATES.test(code))) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(firstLine(error));
}

/**
 * node-postgres's words for a query on a connection that had already died (the server ended the session:
 * pg_terminate_backend, a restart, the network) say nothing of that: said in ours.
 */
function lostWords(reason: string): string {
  return /Client has encountered a connection error/i.test(reason)
    ? "the connection to the server was lost (the server ended the session, or the network cut it)"
    : reason;
}

export function explainPostgresFailure(error: unknown): PostgresFailure {
  const reason = firstLine(error);
  if (NO_PASSWORD.test(reason)) {
    return {
      unreachable: false,
      setup: true,
      reason: "the server asks for a password and none was given",
      hint: PASSWORD_HINT,
    };
  }
  const code = codeOf(error);
  if (code === WRONG_PASSWORD) {
    return { unreachable: false, setup: true, reason, hint: PASSWORD_HINT };
  }
  if (isConnectionFailure(error)) return { unreachable: true, setup: false, reason: lostWords(reason) };
  return { unreachable: false, setup: code !== undefined && SETUP_STATES.test(code), reason };
}
