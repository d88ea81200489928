/**
 * Runs of the CLI that end even when the command would not: a test of a loop bound must fail, not hang.
 * `runCliBounded` runs the real CLI as a process and kills it; `runInProcessBounded` stops waiting.
 */
import { spawn } from "node:child_process";
import { type InProcessOptions, startInProcess } from "./run-cli-in-process";
import { cliCommand } from "./spawn-cli";

export interface BoundedRun {
  code: number | null;
  /** The run had not ended after `killAfterMs` (a loop): it was killed. */
  killed: boolean;
  stdout: string;
  stderr: string;
}

/** The real CLI with a clean environment (no ADREPORT_* of the developer's) plus `env`, killed if it loops. */
export function runCliBounded(
  args: readonly string[],
  env: Record<string, string>,
  killAfterMs: number,
): Promise<BoundedRun> {
  const [cmd, argv] = cliCommand(args);
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("ADREPORT_")) childEnv[name] = value;
  Object.assign(childEnv, env);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let killed = false;
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      stderr += c;
    });
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, killAfterMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, killed, stdout, stderr });
    });
  });
}

/**
 * The CLI in this process, given up on if it has not ended after `limitMs` (a loop): `killed` is then true.
 * A process can be killed; an in-process command cannot, so the bound only ends the wait for it.
 */
export async function runInProcessBounded(
  args: readonly string[],
  options: InProcessOptions,
  limitMs: number,
): Promise<BoundedRun> {
  const started = startInProcess(args, options);
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<BoundedRun>((resolve) => {
    timer = setTimeout(
      () => resolve({ code: null, killed: true, stdout: started.stdout(), stderr: started.stderr() }),
      limitMs,
    );
  });
  try {
    return await Promise.race([
      started.result.then(({ code, stdout, stderr }) => ({ code, killed: false, stdout, stderr })),
      overdue,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
