/**
 * The throwaway PostgreSQL cluster of the tests (test/helpers/postgres-cluster.ts) for a benchmark: Debian's
 * `postgresql` is installed with apt-get first when its binaries are missing and this runs as root.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { type PostgresCluster, startPostgres } from "../test/helpers/postgres-cluster";

function installed(): boolean {
  const root = "/usr/lib/postgresql";
  return existsSync(root) && readdirSync(root).some((v) => existsSync(`${root}/${v}/bin/initdb`));
}

export async function startBenchCluster(
  options: { durable?: boolean; keepIn?: string; settings?: readonly string[] } = {},
): Promise<PostgresCluster | string> {
  if (!installed() && process.getuid?.() === 0) {
    try {
      execFileSync("apt-get", ["install", "-y", "-q", "postgresql"], { stdio: "ignore" });
    } catch {
      // startPostgres says what is missing
    }
  }
  return await startPostgres(options);
}
