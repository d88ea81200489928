/**
 * @duckdb/node-api, loaded only when a duckdb: target is opened (never at start-up: its bindings map a
 * 70 MB library). Where it cannot be loaded (the single binary does not carry it) the run is refused, exit 2,
 * before any request, saying how to get it.
 */
import { UsageError } from "../../core/errors";

export type DuckdbApi = typeof import("@duckdb/node-api");
export type DuckdbConnection = import("@duckdb/node-api").DuckDBConnection;
export type DuckdbInstance = import("@duckdb/node-api").DuckDBInstance;

let api: DuckdbApi | undefined;

export async function duckdbDriver(): Promise<DuckdbApi> {
  if (api !== undefined) return api;
  try {
    // Bundled (scripts/build.mjs), the CommonJS client's exports are the module's default.
    const loaded = (await import("@duckdb/node-api")) as DuckdbApi & { default?: DuckdbApi };
    api = loaded.DuckDBInstance === undefined && loaded.default !== undefined ? loaded.default : loaded;
  } catch {
    throw new UsageError(
      "this adreport has no duckdb: target: DuckDB's library (@duckdb/node-api) is not installed with it",
      {
        hint: "the single binary leaves DuckDB out (70 MB); install adreport with npm, which brings it: npm install -g adreport",
      },
    );
  }
  return api;
}
