/** The real CLI as a child process: `bin/adreport`, or the binary named by ADREPORT_TEST_BIN. */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEachFile } from "./after-file";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = process.env.ADREPORT_TEST_BIN ?? join(ROOT, "bin", "adreport");

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
}

/** The program and arguments that run the CLI under test: `node bin/adreport ...`, or the binary. */
export function cliCommand(args: readonly string[]): [string, string[]] {
  return process.env.ADREPORT_TEST_BIN ? [BIN, [...args]] : [process.execPath, [BIN, ...args]];
}

/** A clean environment: nothing of the developer's own adreport settings leaks in. */
export function environment(extra: CliOptions["env"]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("ADREPORT_")) env[name] = value;
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** The CLI started as a child to signal or kill while it runs; `output` settles when it has closed. */
export function startCliChild(
  args: readonly string[],
  options: { cwd: string; env: CliOptions["env"] },
): ChildProcess & { output: Promise<CliResult> } {
  const [cmd, argv] = cliCommand(args);
  const child = spawn(cmd, argv, {
    cwd: options.cwd,
    env: environment(options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const output = new Promise<CliResult>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return Object.assign(child, { output });
}

export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const [cmd, argv] = cliCommand(args);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, {
      cwd: options.cwd,
      env: environment(options.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

const running = new Set<ChildProcess>();
// After every test file (test/helpers/after-file.ts): every server it started stops after the file, and if
// the worker exits first, with it.
afterEachFile(async () => {
  await Promise.all(
    [...running].map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      child.kill("SIGTERM");
      return new Promise((resolve) => child.once("exit", resolve));
    }),
  );
});
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export interface CliServer {
  url: string;
  child: ChildProcess;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `adreport serve ... --port 0` and waits for the URL it prints on stdout. */
export function startCliServe(args: readonly string[], options: CliOptions = {}): Promise<CliServer> {
  const [cmd, argv] = cliCommand(["serve", ...args, "--port", "0"]);
  const child = spawn(cmd, argv, {
    cwd: options.cwd,
    env: environment(options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once("line", (url) => resolve({ url, child, stderr: () => stderr, stop }));
    child.on("exit", (code) => reject(new Error(`serve exited ${code} before listening: ${stderr}`)));
  });
}
