/**
 * The writers alone, without a service: 1M generated hourly ad rows (a page of 1,000 at a time, names with
 * commas and quotes) through the CSV formatter into an atomic file, into an SQLite table and into a
 * PostgreSQL table (COPY), in this process, 3 interleaved runs each, a fresh file or table each time. The
 * export through `serve` (targets.ts) is bound by the service; this is the bound of the writers themselves.
 */
import { join } from "node:path";
import { csvFormatter } from "../src/format/csv";
import { fileSink } from "../src/io/file-sink";
import { postgresTable } from "../src/targets/postgres/table";
import { sqliteTable } from "../src/targets/sqlite/table";
import { openTableTarget } from "../src/targets/table/target";
import { generatedMeta, generatedPages, generatedRequest } from "./generated-rows";
import { figure, median, timeAsync } from "./lib";

const report = () => ({ meta: generatedMeta, totalKnown: true, pages: generatedPages() });
const span = { from: "2026-09-27", to: "2026-10-14", everyDay: [] };

export async function benchTargetWriters(work: string, postgresUrl: string | undefined): Promise<void> {
  const csv: number[] = [];
  const sqlite: number[] = [];
  const postgres: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    csv.push(
      await timeAsync(async () => {
        const sink = await fileSink(join(work, `writers-${i}.csv`), work);
        await csvFormatter.write(report(), sink.stream, {
          delimiter: ",",
          bom: false,
          spreadsheet: false,
          color: false,
        });
        await sink.commit();
      }),
    );
    const table = async (choice: Parameters<typeof openTableTarget>[0]) => {
      const target = await openTableTarget(choice, {
        profile: "",
        request: generatedRequest,
        cwd: work,
        now: new Date(),
        sqliteAddon: undefined,
        runId: `bench-${i}`,
        job: "bench",
      });
      try {
        await target.stage(report(), span);
        await target.commit(new Set());
      } finally {
        await target.close();
      }
    };
    sqlite.push(
      await timeAsync(() => table(sqliteTable({ path: join(work, `writers-${i}.db`), table: "ads_hourly" }))),
    );
    if (postgresUrl !== undefined) {
      postgres.push(
        await timeAsync(() =>
          table(
            postgresTable({
              url: postgresUrl,
              shown: "bench",
              table: `writers_${i}`,
              connectTimeoutMs: 30_000,
            }),
          ),
        ),
      );
    }
  }
  figure("1M generated rows: CSV formatter into an atomic file (median of 3)", `${(median(csv) / 1000).toFixed(2)} s`);
  const s = median(sqlite) / median(csv);
  figure(
    "1M generated rows into an SQLite table (median of 3)",
    `${(median(sqlite) / 1000).toFixed(2)} s  ${s.toFixed(2)}x`,
    s <= 1.5,
  );
  if (postgres.length > 0) {
    const p = median(postgres) / median(csv);
    figure(
      "1M generated rows into PostgreSQL, COPY (median of 3)",
      `${(median(postgres) / 1000).toFixed(2)} s  ${p.toFixed(2)}x`,
      p <= 2,
    );
  }
}
