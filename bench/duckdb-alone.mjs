// The floor of the duckdb: target's memory (bench/duckdb.ts): a bare Node process that opens a DuckDB file
// with the engine's settings (src/targets/duckdb/open.ts) and appends ROWS generated hourly ad rows in one
// transaction, as the engine does, with no service, no HTTP client and no parsing.
//   node bench/duckdb-alone.mjs FILE ROWS
import { rmSync } from "node:fs";
import { DuckDBInstance, timestampValue } from "@duckdb/node-api";

const [file, count = "1000000"] = process.argv.slice(2);
const rows = Number(count);
rmSync(file, { force: true });
const instance = await DuckDBInstance.create(file, { memory_limit: "16MB", threads: "1" });
const connection = await instance.connect();
await connection.run(
  `CREATE TABLE ads (ad_id BIGINT, name VARCHAR, campaign_id BIGINT, "date" TIMESTAMP, views BIGINT, spending DECIMAL(20,6),
   clicks BIGINT, conversions BIGINT, profile VARCHAR NOT NULL, query_scope VARCHAR NOT NULL, exported_at TIMESTAMP NOT NULL, run_id VARCHAR)`,
);
await connection.run("BEGIN TRANSACTION");
const appender = await connection.createAppender("ads");
const stamp = timestampValue(BigInt(Date.now()) * 1000n);
const hours = 400;
const hour = Array.from({ length: hours }, (_, h) =>
  timestampValue(BigInt(Date.UTC(2026, 8, 27) + h * 3_600_000) * 1000n),
);
for (let i = 0; i < rows; i += 1) {
  const ad = Math.floor(i / hours) + 1;
  const h = i % hours;
  appender.appendDouble(ad);
  appender.appendVarchar(`Ad ${ad}, "spring"`);
  appender.appendDouble(Math.ceil(ad / 50));
  appender.appendTimestamp(hour[h]);
  appender.appendDouble(100 + h);
  appender.appendDouble(Math.round((ad * 1.234567 + h) * 1e6) / 1e6);
  appender.appendDouble(h % 7);
  appender.appendDouble(h % 3);
  appender.appendVarchar("");
  appender.appendVarchar("granularity=hour");
  appender.appendTimestamp(stamp);
  appender.appendVarchar("bench");
  appender.endRow();
  // As the engine hands the appender's rows to the transaction (src/targets/duckdb/engine.ts).
  if (i % 20_000 === 19_999) appender.flushSync();
}
appender.closeSync();
await connection.run("COMMIT");
connection.closeSync();
instance.closeSync();
