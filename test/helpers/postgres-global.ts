/**
 * vitest's globalSetup (vitest.config.mts): one throwaway PostgreSQL cluster for the whole test run,
 * started before the first test file and stopped after the last; each file takes databases of its own on it
 * (test/helpers/postgres.ts, backends.ts). Starting a cluster per file cost about a second and a half of a
 * core each, twenty times a run. Where no cluster can run, the reason is handed on instead and the cases
 * that need one skip with it (or fail where ADREPORT_TEST_REQUIRE names postgres).
 */
import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres-cluster";

export type SharedPostgres = { port: number } | { unavailable: string };

declare module "vitest" {
  export interface ProvidedContext {
    postgres: SharedPostgres;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const started = await startPostgres();
  if (typeof started === "string") console.warn(`skipping PostgreSQL cases: ${started}`);
  project.provide("postgres", typeof started === "string" ? { unavailable: started } : { port: started.port });
  return () => {
    if (typeof started !== "string") started.stop();
  };
}
