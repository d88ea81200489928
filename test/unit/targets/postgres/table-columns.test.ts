/**
 * What a run finds of a table another run is creating at the same moment (a real cluster): before that run's
 * commit, no table; after it, every column. Never a table with no columns: two accounts of one --all-profiles
 * run into a new database, the second took the adreport_loads the first had just committed for a foreign one
 * ("is not adreport's: it has no column run_id") and failed.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { connectPostgres, tableColumns } from "../../../../src/targets/postgres/client";
import { usePostgres } from "../../../helpers/postgres";

const postgres = usePostgres();

describe("tableColumns while another session creates the table", () => {
  it("finds no table, or the whole table: never one without columns", async (context) => {
    const url = await postgres.database(context);
    const creator = new pg.Client({ connectionString: url });
    await creator.connect();
    const reader = await connectPostgres(url, 5_000);
    try {
      await creator.query("BEGIN");
      await creator.query("CREATE TABLE adreport_loads (run_id TEXT NOT NULL, job TEXT NOT NULL)");
      // The other run commits right after this run's first statement about the table has answered.
      const query = reader.query.bind(reader) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
      let committed = false;
      (reader as unknown as { query: typeof query }).query = async (text, values) => {
        const result = await query(text, values);
        if (!committed) {
          committed = true;
          await creator.query("COMMIT");
        }
        return result;
      };
      expect(await tableColumns(reader, "adreport_loads")).toBeUndefined();
      expect(committed).toBe(true);
      expect(await tableColumns(reader, "adreport_loads")).toEqual([
        { name: "run_id", type: "text" },
        { name: "job", type: "text" },
      ]);
    } finally {
      await reader.end();
      await creator.end();
    }
  });

  it("a table without columns is found, with none", async (context) => {
    const url = await postgres.database(context);
    const reader = await connectPostgres(url, 5_000);
    try {
      await reader.query("CREATE TABLE bare ()");
      expect(await tableColumns(reader, "bare")).toEqual([]);
      expect(await tableColumns(reader, "missing")).toBeUndefined();
    } finally {
      await reader.end();
    }
  });
});
