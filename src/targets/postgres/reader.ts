/** A PostgreSQL table read for `verify` (targets/table/reader.ts says what is read): one read-only snapshot. */
import { quoteName, tableLayout } from "../table/columns";
import { collect, type DaySums, metricNames, type ReaderOptions, sumsOf, type TableReader } from "../table/reader";
import { connectPostgres, tableColumns } from "./client";
import { postgresDialect } from "./dialect";

export async function postgresReader(
  choice: { url: string; shown: string; table: string; connectTimeoutMs: number },
  options: ReaderOptions,
): Promise<TableReader> {
  const description = `the table ${choice.table} in ${choice.shown}`;
  const client = await connectPostgres(choice.url, choice.connectTimeoutMs);
  const layout = tableLayout(options.request, options.profile);
  return {
    description,
    async missing() {
      const columns = await tableColumns(client, choice.table);
      return columns === undefined ? `no table ${choice.table} in ${choice.shown}` : undefined;
    },
    async daySums(from: string, to: string): Promise<DaySums> {
      await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      try {
        const columns = await tableColumns(client, choice.table);
        if (columns === undefined) return new Map();
        const has = new Set(columns.map((c) => c.name));
        const select = [
          `to_char("date"::date, 'YYYY-MM-DD')`,
          "count(*)::text",
          ...sumsOf(postgresDialect, layout, has),
        ];
        const result = await client.query({
          text: `SELECT ${select.join(", ")} FROM ${quoteName(choice.table)}
                  WHERE profile = $1 AND query_scope = $2 AND "date" >= $3::date AND "date" < $4::date + 1
                  GROUP BY 1 ORDER BY 1`,
          values: [layout.profile, layout.scope, from, to],
          rowMode: "array",
        });
        return collect(result.rows as unknown[][], metricNames(layout, has));
      } finally {
        await client.query("ROLLBACK").catch(() => undefined);
      }
    },
    close: () => client.end().catch(() => undefined),
  };
}
