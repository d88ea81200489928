/**
 * `-o postgres://...`: a table in a PostgreSQL database, kept by a job as the URL without its secrets (the
 * same database is the same job whether its password comes in the URL or from PGPASSWORD) and the table.
 */
import { databaseIdentity, databaseLabel, isPostgresUrl } from "../../core/database-label";
import { UsageError } from "../../core/errors";
import { explainPostgresFailure } from "../../core/postgres-failure";
import { printable } from "../../core/printable";
import type { JobTarget } from "../../state/job";
import type { TargetKind } from "../kind";
import { jobDatabase } from "../table/jobs";
import { DATABASE_WHAT, splitTableText, tableNameOf } from "../table/name";
import { PostgresPaceLedger } from "./pace-ledger";
import { postgresTable } from "./table";

export interface PostgresTarget extends JobTarget {
  readonly kind: "postgres";
  /** The URL without its secrets. */
  readonly where: string;
  readonly table: string;
}

/** The URL to connect with: --db's (with its password) when it names the job's database, else the job's own. */
function urlOf(target: PostgresTarget, db: string | undefined): string {
  if (db !== undefined && databaseIdentity(db) !== target.where) {
    throw new UsageError(`--output names another database than the job's (${target.where})`);
  }
  return db ?? target.where;
}

/** How long `verify` waits for a connection (a run waits --timeout). */
const VERIFY_CONNECT_MS = 30_000;

export const postgresKind: TargetKind<PostgresTarget> = {
  name: "postgres",
  claims: isPostgresUrl,
  takesTable: true,
  example: "postgres://...",
  parse(words) {
    const table = tableNameOf(words);
    const target: PostgresTarget = { kind: "postgres", where: databaseIdentity(words.output), table };
    return { kind: "target", target, what: DATABASE_WHAT, template: undefined, given: words.output };
  },
  check: ({ where, table }) =>
    typeof where === "string" && typeof table === "string" ? { kind: "postgres", where, table } : undefined,
  fromText(text) {
    const parts = isPostgresUrl(text) ? splitTableText(text) : undefined;
    return parts && { kind: "postgres", where: parts.where, table: parts.table };
  },
  text: (target) => `${target.where}#${target.table}`,
  writers: "per-profile",
  grows: true,
  fleet: true,
  paceLedger: (spec, fingerprint, connectTimeoutMs, alone, note) =>
    new PostgresPaceLedger(spec.given, fingerprint, connectTimeoutMs, alone, note),
  lookAtJob: async (spec, id, connectTimeoutMs) =>
    (await import("./fleet-peek")).lookAtJob(spec.given, id, connectTimeoutMs),
  describe: (spec) => {
    const database = databaseLabel(spec.given);
    return {
      words: `table ${spec.target.table} in ${printable(database)}`,
      json: { kind: "postgres", database, table: spec.target.table },
    };
  },
  async open(spec, options) {
    const { openTableTarget } = await import("../table/target");
    const { table, where: shown } = spec.target;
    const access = postgresTable({ url: spec.given, shown, table, connectTimeoutMs: options.connectTimeoutMs });
    return openTableTarget(access, options);
  },
  reading: (target, place) => ({
    reads: "table",
    async open() {
      const url = urlOf(target, place.db);
      const { table, where: shown } = target;
      const access = postgresTable({ url, shown, table, connectTimeoutMs: VERIFY_CONNECT_MS });
      return (await import("../table/reader")).openTableReader(access, place);
    },
  }),
  words: (target, db) => ({ output: urlOf(target, db), table: target.table }),
  jobDatabase: (target, place) => {
    const url =
      place.connect !== undefined && databaseIdentity(place.connect) === target.where ? place.connect : target.where;
    return jobDatabase(target.where, explainPostgresFailure, async () =>
      (await import("./jobs")).postgresJobTable(url, target.where, place.connectTimeoutMs),
    );
  },
  databaseOf: (target) => ({ kind: "postgres", where: target.where, table: "" }),
};
