// `npm run demo`: the main job on the bundled demo data. Creates the demo database (seeded, so always the
// same data), issues a key for this machine, starts `adreport serve` on a free port, pulls the demo's last
// 7 days by campaign and date as a table, and stops the server.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

const root = join(import.meta.dirname, "..");
const bin = join(root, "bin", "adreport");
const work = join(root, ".demo");
const db = join(work, "demo.db");
mkdirSync(work, { recursive: true });

function adreport(args) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  return result.stdout.trim();
}

console.error("demo: creating the demo database (.demo/demo.db) ...");
if (!existsSync(db)) adreport(["serve", "demo", "--db", db]);
const key = adreport([
  "serve",
  "key",
  "issue",
  "--db",
  db,
  "--advertiser",
  "Acme Outdoor",
  "--ip",
  "127.0.0.1",
  "--expires-in",
  "1",
]);

const server = spawn(process.execPath, [bin, "serve", "--db", db, "--port", "0", "--quiet"], {
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise((resolve, reject) => {
  createInterface({ input: server.stdout }).once("line", resolve);
  server.once("exit", (code) => reject(new Error(`serve exited ${code}`)));
});
console.error(
  `demo: serve is listening on ${url}; pulling Acme Outdoor's last 7 days of demo data by campaign and date:\n`,
);

const args = ["report", "--from", "2026-10-25", "--to", "2026-10-31", "--dims", "campaign,date", "--format", "table"];
const report = spawnSync(process.execPath, [bin, ...args], {
  stdio: "inherit",
  env: { ...process.env, ADREPORT_API_KEY: key, ADREPORT_BASE_URL: url, ADREPORT_CONFIG_DIR: join(work, "config") },
});
server.kill("SIGTERM");
console.error(`\ndemo: that was: adreport ${args.join(" ")}`);
process.exit(report.status ?? 1);
