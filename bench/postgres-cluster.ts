/**
 * A throwaway PostgreSQL cluster for the targets benchmark: Debian's binaries (installed with apt-get when
 * missing and running as root), `initdb` in a temporary folder, `pg_ctl` on a free loopback port, default
 * durability settings (fsync on), owned by the `postgres` user when run as root.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

function binDir(): string | undefined {
  const root = "/usr/lib/postgresql";
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

export interface BenchCluster {
  url: string;
  stop(): void;
}

/** The cluster, or the reason there is none. */
export async function startBenchCluster(): Promise<BenchCluster | string> {
  let bin = binDir();
  if (bin === undefined && process.getuid?.() === 0) {
    try {
      execFileSync("apt-get", ["install", "-y", "-q", "postgresql"], { stdio: "ignore" });
    } catch {
      // reported below
    }
    bin = binDir();
  }
  if (bin === undefined) return "no PostgreSQL binaries (apt-get install postgresql)";
  const root = process.getuid?.() === 0;
  const owner = root
    ? (() => {
        const [, , uid, gid] = execFileSync("getent", ["passwd", "postgres"], { encoding: "utf8" }).trim().split(":");
        return { uid: Number(uid), gid: Number(gid) };
      })()
    : undefined;
  const dir = mkdtempSync(join(tmpdir(), "adreport-bench-pg-"));
  chmodSync(dir, 0o755);
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, "data");
  const run = (tool: string, args: string[]) => {
    const command = owner ? "runuser" : join(bin as string, tool);
    const argv = owner ? ["-u", "postgres", "--", join(bin as string, tool), ...args] : args;
    execFileSync(command, argv, { stdio: ["ignore", "pipe", "pipe"], cwd: dir });
  };
  const port = await freePort();
  run("initdb", ["-D", data, "-U", "adreport", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]);
  run("pg_ctl", [
    "-D",
    data,
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    "-l",
    join(dir, "log"),
    "-w",
    "-t",
    "60",
    "start",
  ]);
  return {
    url: `postgres://adreport@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
      } catch {
        // already gone
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
