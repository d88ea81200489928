/**
 * The writers alone, without a service: 1M generated hourly ad rows (a page of 1,000 at a time, names with
 * commas and quotes) through the CSV formatter into an atomic file, into an SQLite table and into a
 * PostgreSQL table (COPY), in this process, 3 interleaved runs each, a fresh file or table each time. The
 * export through `serve` (targets.ts) is bound by the service; this is the bound of the writers themselves.
 */
import { join } from "node:path";
import type { ReportMeta, ReportRequest, RowPage } from "../src/contract";
import { csvFormatter } from "../src/format/csv";
import { fileSink } from "../src/io/file-sink";
import { postgresTable } from "../src/targets/postgres/table";
import { sqliteTable } from "../src/targets/sqlite/table";
import { openTableTarget } from "../src/targets/table/target";
import { figure, median, timeAsync } from "./lib";

const ROWS = 1_000_000;
const ADS = 2_500;
const START = Date.UTC(2026, 8, 27) / 1000;
const METRICS = ["views", "spending", "clicks", "conversions"];

const meta: ReportMeta = {
  granularity: "hourly",
  dimensions: ["ad", "date"],
  metrics: METRICS,
  total: ROWS,
  page: 1,
  limit: 1000,
  has_more: false,
};

const request: ReportRequest = {
  from: "2026-09-27",
  to: "2026-10-14",
  metrics: ["views", "spending", "clicks", "conversions"],
  dimensions: ["ad", "date"],
  granularity: "hour",
};

async function* pages(): AsyncGenerator<RowPage> {
  const hours = ROWS / ADS;
  let rows = [];
  for (let ad = 1; ad <= ADS; ad += 1) {
    for (let h = 0; h < hours; h += 1) {
      rows.push({
        dimensions: { ad_id: ad, name: `Ad ${ad}, "spring"`, campaign_id: Math.ceil(ad / 50), date: START + h * 3600 },
        metrics: {
          views: 100 + h,
          spending: Math.round((ad * 1.234567 + h) * 1e6) / 1e6,
          clicks: h % 7,
          conversions: h % 3,
        },
      });
      if (rows.length === 1000) {
        yield { rows };
        rows = [];
      }
    }
  }
  if (rows.length > 0) yield { rows };
}

const report = () => ({ meta, totalKnown: true, pages: pages() });
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
        request,
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
