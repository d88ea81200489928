import pg from "pg";
import { describe, expect, it } from "vitest";
import { usePostgres } from "../../helpers/postgres";

const postgres = usePostgres();

describe("the throwaway PostgreSQL cluster", () => {
  it("gives each test its own database on a real server", async (context) => {
    const first = await postgres.database(context);
    const second = await postgres.database(context);
    expect(first).not.toBe(second);
    const client = new pg.Client({ connectionString: first });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: string }>("SELECT version()");
      expect(rows[0]?.version).toMatch(/^PostgreSQL \d+/);
      await client.query("CREATE TABLE t (amount NUMERIC(20,6))");
      await client.query("INSERT INTO t VALUES (1204.55)");
      const sum = await client.query<{ amount: string }>("SELECT amount FROM t");
      expect(sum.rows[0]?.amount).toBe("1204.550000");
    } finally {
      await client.end();
    }
  });
});
