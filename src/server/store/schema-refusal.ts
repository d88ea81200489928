/**
 * A database of another layout than this adreport's (sql/schema-version.ts), refused in the operator's
 * terms, the same on both backends: an older one with the command that upgrades it, a newer one with
 * whose it is. Nothing upgrades a database by itself: `serve` opens SQLite read-only, and after an upgrade
 * an older adreport (another `serve` on the same PostgreSQL, say) can no longer read it.
 */
import { isPostgresUrl } from "../../core/database-label";
import { shellWord } from "../../core/shell-word";
import { DatabaseError } from "../model/errors";
import { SCHEMA_VERSION, type SchemaState } from "../sql/schema-version";

/** `label` is the database as it may be shown (a URL without its password). */
export function upgradeCommand(label: string): string {
  return `adreport serve upgrade --db ${shellWord(label)}`;
}

/** The refusal of an older or newer database, or undefined for one this adreport reads as it is. */
export function schemaRefusal(state: SchemaState, label: string): DatabaseError | undefined {
  if (state.kind === "older") {
    const what =
      state.version < SCHEMA_VERSION
        ? `schema version ${state.version}; this adreport reads version ${SCHEMA_VERSION}`
        : `a layout without the counters ${state.missing.join(", ")}, which this adreport stores`;
    const password = isPostgresUrl(label) && label.includes("***") ? " (with the password in place of ***)" : "";
    return new DatabaseError(`${label} holds serve's data in ${what}`, {
      hint: `upgrade it in place${password}: ${upgradeCommand(label)}`,
    });
  }
  if (state.kind === "newer") {
    const what =
      state.unknown.length > 0
        ? `counters this adreport does not know (${state.unknown.join(", ")})`
        : `schema version ${state.version}; this adreport reads up to version ${SCHEMA_VERSION}`;
    return new DatabaseError(`${label} was made by a newer adreport: it holds ${what}`, {
      hint: "use that adreport (or a newer one) with this database",
    });
  }
  return undefined;
}
