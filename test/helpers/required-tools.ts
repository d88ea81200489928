/**
 * The tools some cases need besides Node: PostgreSQL's server binaries, Chromium, Miller, Prometheus's promtool. Where one is
 * missing, its cases skip with the reason printed, so a developer's machine runs what it can. Where
 * ADREPORT_TEST_REQUIRE names the tool (a comma list of postgres, chromium, miller, promtool; or `all`), a missing
 * tool fails those cases instead: CI installs all three and sets it, so it cannot pass by skipping.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export type Tool = "postgres" | "chromium" | "miller" | "promtool";
const TOOLS: readonly Tool[] = ["postgres", "chromium", "miller", "promtool"];
type Env = Record<string, string | undefined>;

/** The tools ADREPORT_TEST_REQUIRE names; a name it does not know is an error, not a silent skip. */
export function requiredTools(env: Env = process.env): Set<Tool> {
  const names = (env.ADREPORT_TEST_REQUIRE ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (names.includes("all")) return new Set(TOOLS);
  for (const name of names)
    if (!TOOLS.includes(name as Tool))
      throw new Error(`ADREPORT_TEST_REQUIRE: unknown tool "${name}" (known: ${TOOLS.join(", ")}, all)`);
  return new Set(names as Tool[]);
}

/** `tool` is missing for `reason`: returns the reason to skip with, or throws where the tool is required. */
export function unlessRequired(tool: Tool, reason: string, env: Env = process.env): string {
  if (requiredTools(env).has(tool))
    throw new Error(`${reason} (ADREPORT_TEST_REQUIRE requires ${tool}: install it, or leave it out of the setting)`);
  return reason;
}

/** In a case: skips it with the reason, or fails it where the tool is required. */
export function skipMissing(context: { skip(note?: string): never }, tool: Tool, reason: string): never {
  return context.skip(unlessRequired(tool, reason));
}

/** Why Miller cannot run here (not on PATH), or undefined. */
export function millerMissing(env: Env = process.env): string | undefined {
  const found = spawnSync("mlr", ["--version"], { env: { PATH: env.PATH ?? "" } }).status === 0;
  return found ? undefined : "Miller (mlr) is not on PATH: install Debian's miller (.ci/run does as root)";
}

/** Debian's Chromium, or the executable ADREPORT_TEST_CHROMIUM names. */
export function chromiumPath(env: Env = process.env): string {
  return env.ADREPORT_TEST_CHROMIUM ?? "/usr/bin/chromium";
}

/** Why Chromium cannot run here, or undefined. */
export function chromiumMissing(env: Env = process.env): string | undefined {
  const path = chromiumPath(env);
  return existsSync(path)
    ? undefined
    : `${path} is missing: install Debian's chromium (apt-get install chromium; .ci/run does as root)`;
}

/** Prometheus's own checker of the text exposition format: Debian's `prometheus` package has it. */
export function promtoolPath(env: Env = process.env): string {
  return env.ADREPORT_TEST_PROMTOOL ?? "promtool";
}

/** Why promtool cannot run here (not on PATH), or undefined. */
export function promtoolMissing(env: Env = process.env): string | undefined {
  const found = spawnSync(promtoolPath(env), ["--version"], { env: { PATH: env.PATH ?? "" } }).status === 0;
  return found ? undefined : "promtool is not on PATH: install Debian's prometheus (apt-get install prometheus)";
}
