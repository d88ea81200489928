/**
 * A throwaway PostgreSQL server: Debian's binaries, a cluster made by `initdb` in a temporary folder,
 * `pg_ctl` on a free loopback port (fsync off: for tests and benchmarks only). As root (CI), the cluster
 * belongs to the `postgres` user, since PostgreSQL refuses to run as root. No vitest here, so the
 * benchmarks can use it too; tests use postgres.ts.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface PostgresCluster {
  /** postgres://adreport@127.0.0.1:PORT/postgres: the superuser's URL (trust auth on loopback). */
  readonly adminUrl: string;
  readonly port: number;
  /** Runs SQL as the superuser on `database` (default postgres). */
  sql(text: string, database?: string): Promise<pg.QueryResult>;
  /** A new database, empty or a copy of `template` (which nobody may be connected to); returns its URL. */
  createDatabase(name?: string, template?: string): Promise<string>;
  stop(): void;
}

function binDir(root: string): string | undefined {
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin");
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = execFileSync("getent", ["passwd", "postgres"], { encoding: "utf8" }).trim();
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

let counter = 0;

/**
 * Starts a cluster, or returns why it cannot run here. Tests give up durability for speed; `durable` keeps
 * PostgreSQL's defaults (fsync on), for benchmarks that measure writes as a team's server would make them.
 * `keepIn` (benchmarks) keeps the cluster in that folder across runs: made there once, started again after.
 */
export async function startPostgres({
  durable = false,
  keepIn,
  settings = [],
  root = "/usr/lib/postgresql",
}: {
  durable?: boolean;
  keepIn?: string;
  /** More server settings, `name=value` each (a benchmark's `shared_preload_libraries=pg_stat_statements`). */
  settings?: readonly string[];
  /** Where Debian keeps PostgreSQL's versions (another folder for a test of a machine without them). */
  root?: string;
} = {}): Promise<PostgresCluster | string> {
  const bin = binDir(root);
  if (bin === undefined) return `PostgreSQL server binaries not found under ${root} (Debian package postgresql)`;
  let owner: { uid: number; gid: number } | undefined;
  try {
    owner = postgresUser();
  } catch {
    return "running as root and there is no postgres user to own the cluster";
  }
  const dir = keepIn ?? mkdtempSync(join(tmpdir(), "adreport-pg-"));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, "data");
  const forget = () => {
    if (keepIn === undefined) rmSync(dir, { recursive: true, force: true });
  };
  const run = (tool: string, args: string[]) => {
    const command = owner ? "runuser" : join(bin, tool);
    const argv = owner ? ["-u", "postgres", "--", join(bin, tool), ...args] : args;
    execFileSync(command, argv, { stdio: ["ignore", "pipe", "pipe"], cwd: dir });
  };
  const port = await freePort();
  try {
    if (existsSync(join(data, "postmaster.pid"))) run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
  } catch {
    // a stale pid file from a run that was killed: pg_ctl start copes with it
  }
  try {
    if (!existsSync(join(data, "PG_VERSION"))) {
      rmSync(data, { recursive: true, force: true });
      run("initdb", ["-D", data, "-U", "adreport", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
    }
    const fast = durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off";
    const more = settings.map((setting) => ` -c ${setting}`).join("");
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${fast}${more}`;
    run("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "60", "start"]);
  } catch (error) {
    forget();
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return `could not start a PostgreSQL cluster: ${stderr || String(error)}`;
  }
  return clusterAt(port, () => {
    try {
      run("pg_ctl", ["-D", data, "-m", keepIn === undefined ? "immediate" : "fast", "-w", "stop"]);
    } catch {
      // already gone
    }
    forget();
  });
}

/**
 * The cluster listening on `port` of 127.0.0.1 (started by startPostgres, here or in another process: the
 * test run's one cluster, test/helpers/postgres-global.ts); `stop` is what ends it, nothing by default.
 */
export function clusterAt(port: number, stop: () => void = () => undefined): PostgresCluster {
  const urlOf = (database: string) => `postgres://adreport@127.0.0.1:${port}/${database}`;
  const sql = async (text: string, database = "postgres") => {
    const client = new pg.Client({ connectionString: urlOf(database) });
    await client.connect();
    try {
      return await client.query(text);
    } finally {
      await client.end();
    }
  };
  return {
    adminUrl: urlOf("postgres"),
    port,
    sql,
    async createDatabase(name, template) {
      counter += 1;
      // Unique across the processes of one test run sharing the cluster, and across runs of one process.
      const database = name ?? `t_${process.pid}_${counter}_${Math.random().toString(36).slice(2, 8)}`;
      await sql(`CREATE DATABASE "${database}"${template === undefined ? "" : ` TEMPLATE "${template}"`}`);
      return urlOf(database);
    },
    stop,
  };
}
