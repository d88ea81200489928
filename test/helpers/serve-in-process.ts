/**
 * `adreport serve ... --port 0` in this process: resolves with the URL it prints once it listens, and
 * stops through the SIGTERM/SIGINT handlers the command registered. Every one still running is stopped
 * after the test file.
 */

import { afterEachFile } from "./after-file";
import { type InProcessOptions, type InProcessRun, startInProcess } from "./run-cli-in-process";
import type { CliResult } from "./spawn-cli";

export interface InProcessServe {
  url: string;
  run: InProcessRun;
  /** Delivers the signal and returns how the command ended. */
  stop(signal?: "SIGINT" | "SIGTERM"): Promise<CliResult>;
}

const running = new Set<InProcessRun>();
afterEachFile(async () => {
  await Promise.all(
    [...running].map((run) => {
      run.signal("SIGTERM");
      return run.result;
    }),
  );
  running.clear();
});

export async function serveInProcess(args: readonly string[], options: InProcessOptions = {}): Promise<InProcessServe> {
  const run = startInProcess(["serve", ...args, "--port", "0"], options);
  running.add(run);
  void run.result.then(() => running.delete(run));
  // The URL line; rejects with the command's stderr if it ends first (a bad flag, a missing database).
  const url = (await run.waitFor("stdout", /\n/)).split("\n")[0] as string;
  return {
    url,
    run,
    async stop(signal = "SIGTERM") {
      if (running.has(run)) run.signal(signal);
      return run.result;
    },
  };
}
