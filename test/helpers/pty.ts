/**
 * The real CLI on a pseudo-terminal (test/helpers/pty-run.py): what the screen received, and the exit code.
 * Asynchronous, so that a server in this test process goes on answering while the CLI runs.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { cliCommand } from "./spawn-cli";

const PTY_RUN = join(import.meta.dirname, "pty-run.py");

/**
 * Runs `adreport <args>` on a terminal `columns` wide (0: one that reports no width), with the test
 * runner's environment plus `env` (`undefined` removes a variable).
 */
export async function runOnTerminal(
  args: readonly string[],
  columns: number,
  env: Record<string, string | undefined>,
): Promise<{ screen: string; code: number | null }> {
  const [command, argv] = cliCommand(args);
  const merged: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries({ ...process.env, ...env })) if (value !== undefined) merged[name] = value;
  const { stdout } = await promisify(execFile)("python3", [PTY_RUN, String(columns), "", "", "--", command, ...argv], {
    encoding: "utf8",
    env: merged,
  });
  return JSON.parse(stdout) as { screen: string; code: number | null };
}
