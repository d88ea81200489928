// `npm run demo`: the main job on the bundled demo data. Creates the demo database (seeded: the same data
// for the same day; it ends with yesterday, UTC), issues a key for this machine, starts `adreport serve` on a
// free port, pulls the last 7 days (the report's default range) by campaign and date as a table, and stops
// the server.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

const root = join(import.meta.dirname, "..");
const bin = join(root, "bin", "adreport");
const work = join(root, ".demo");
const today = new Date().toISOString().slice(0, 10);
// One database, .demo/demo.db, made again when its data ends before yesterday (demo.end names the day after
// it); the databases of earlier versions, one per day, are removed.
const db = join(work, "demo.db");
const endFile = join(work, "demo.end");
mkdirSync(work, { recursive: true });
for (const name of readdirSync(work)) {
  if (/^demo-\d{4}-\d{2}-\d{2}\.db(-wal|-shm)?$/.test(name)) rmSync(join(work, name), { force: true });
}
const madeFor = existsSync(endFile) ? readFileSync(endFile, "utf8").trim() : undefined;
const fresh = existsSync(db) && madeFor === today;
if (!fresh) {
  for (const file of [db, `${db}-wal`, `${db}-shm`, endFile]) rmSync(file, { force: true });
}

function adreport(args) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  return result.stdout.trim();
}

if (!fresh) {
  console.error("demo: creating the demo database (.demo/demo.db: 400 days, once a day) ...");
  adreport(["serve", "demo", "--db", db, "--end", today]);
  writeFileSync(endFile, `${today}\n`);
} else {
  // A database made today by an earlier adreport: brought to this one's layout (nothing to do when it is).
  adreport(["serve", "upgrade", "--db", db]);
}
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
console.error(`demo: serve is listening on ${url}; pulling Acme Outdoor's last 7 days by campaign and date:\n`);

const args = ["report", "--dims", "campaign,date", "--format", "table"];
const report = spawnSync(process.execPath, [bin, ...args], {
  stdio: "inherit",
  env: { ...process.env, ADREPORT_API_KEY: key, ADREPORT_BASE_URL: url, ADREPORT_CONFIG_DIR: join(work, "config") },
});
server.kill("SIGTERM");
console.error(`\ndemo: that was: adreport ${args.join(" ")}`);
process.exit(report.status ?? 1);
