/** A PostgreSQL database's table as targets/table/ needs it; pg is loaded only when it is opened. */
import { explainPostgresFailure } from "../../core/postgres-failure";
import type { TableAccess } from "../table/target";

/** `url`: with its password, to connect; `shown`: without it, for every message. */
export function postgresTable(choice: {
  url: string;
  shown: string;
  table: string;
  connectTimeoutMs: number;
}): TableAccess {
  return {
    table: choice.table,
    where: choice.shown,
    failureWords: explainPostgresFailure,
    async engine() {
      const { postgresEngine } = await import("./engine");
      return postgresEngine(choice.url, choice.shown, choice.table, choice.connectTimeoutMs);
    },
    async reader(options) {
      const { postgresReader } = await import("./reader");
      return postgresReader(choice, options);
    },
  };
}
