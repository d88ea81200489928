/** Starts a long-running server child process and waits for the URL it prints first on stdout. */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { BIN } from "./lib";

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Where servers' stderr goes: the guard, which prints one line a figure, drops it. */
let serverStderr: "inherit" | "ignore" = "inherit";

export function quietServers(): void {
  serverStderr = "ignore";
}

export function startProcess(command: string, args: readonly string[]): Promise<ServerProcess> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", serverStderr] });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once("line", (url) =>
      resolve({
        url: url.trim(),
        child,
        stop: async () => {
          child.kill("SIGTERM");
          await exited;
        },
      }),
    );
    child.once("exit", (code) => reject(new Error(`${command} exited ${code} before printing its URL`)));
  });
}

/** `adreport serve` (the built CLI) on a free port over `db`, with `extra` flags. */
export function startServe(db: string, extra: readonly string[] = []): Promise<ServerProcess> {
  return startProcess(process.execPath, [BIN, "serve", "--db", db, "--port", "0", "--quiet", ...extra]);
}
