/**
 * The CLI in this test process: `run(argv, ctx)` as `bin/adreport` calls it, with every seam of the
 * Context chosen by the test: stdout/stderr captured in memory, the TTY-ness and width of each stream,
 * stdin, the environment (nothing of the developer's own leaks in: HOME is a fresh temporary folder),
 * the working folder, the clock, and where HTTP requests go (an undici MockAgent, or an Agent for a local
 * server). Use it for flags, exit codes, messages, config and keys; use `runCli` (a child process) only for
 * what a process shows: signals, a real terminal, pipes closed by the reader, the single-file binary.
 */
import { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import type { Dispatcher } from "undici";
import { run } from "../../src/cli/main";
import type { Context } from "../../src/commands/context";
import { colorWanted, type IOStreams } from "../../src/io/iostreams";
import type { CliResult } from "./spawn-cli";
import { tempDir } from "./temp";

const VERSION = (
  JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as {
    version: string;
  }
).version;

export interface InProcessOptions {
  /** Added to a clean environment: PATH and a temporary HOME; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** What stdin holds; it ends after this text. */
  input?: string;
  /** The working folder relative paths resolve against; a fresh temporary folder by default. */
  cwd?: string;
  /** A fixed clock (each call of ctx.now() returns it) or a function of your own. */
  now?: Date | (() => Date);
  /** Where HTTP requests go: an undici MockAgent, or an Agent/Pool for a local server. */
  dispatcher?: Dispatcher;
  inIsTTY?: boolean;
  outIsTTY?: boolean;
  errIsTTY?: boolean;
  /** Terminal width of stdout (and stderr, when it is a terminal); 80 by default. */
  columns?: number;
  /** The user the config folder must belong to; this process's user by default. */
  user?: { uid: number; gid: number } | undefined;
}

export interface InProcessRun {
  /** Settles when the command has returned its exit code. */
  readonly result: Promise<CliResult>;
  /** What the command has written to stdout so far. */
  stdout(): string;
  /** What the command has written to stderr so far. */
  stderr(): string;
  /** Delivers SIGINT or SIGTERM to the handlers the command registered through ctx.onSignal. */
  signal(name: "SIGINT" | "SIGTERM"): void;
  /** How many signal handlers the command has registered now (a command waiting for Ctrl-C has one). */
  signalHandlers(): number;
  /**
   * Resolves with all the stream holds once it matches `pattern` (a server's URL line, a log line);
   * rejects if the command returns first. The test's timeout bounds the wait.
   */
  waitFor(stream: "stdout" | "stderr", pattern: RegExp): Promise<string>;
}

interface Captured {
  stream: PassThrough;
  text(): string;
}

function capture(): Captured {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

function environment(options: InProcessOptions): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: tempDir("adreport-home-") };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Starts a command in this process; see InProcessRun for what a test can do while it runs. */
export function startInProcess(args: readonly string[], options: InProcessOptions = {}): InProcessRun {
  const out = capture();
  const err = capture();
  const env = environment(options);
  const columns = options.columns ?? 80;
  const io: IOStreams = {
    in: Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]),
    out: out.stream,
    err: err.stream,
    inIsTTY: options.inIsTTY ?? false,
    outIsTTY: options.outIsTTY ?? false,
    errIsTTY: options.errIsTTY ?? false,
    color: colorWanted(options.errIsTTY ?? false, env),
    outColor: colorWanted(options.outIsTTY ?? false, env),
    columns,
    errColumns: options.errIsTTY ? columns : 0,
  };
  const signals = new EventEmitter();
  const now = options.now;
  const ctx: Context = {
    io,
    env,
    cwd: options.cwd ?? tempDir("adreport-cwd-"),
    version: VERSION,
    now: now === undefined ? () => new Date() : typeof now === "function" ? now : () => new Date(now.getTime()),
    user:
      "user" in options
        ? options.user
        : process.getuid && process.getgid
          ? { uid: process.getuid(), gid: process.getgid() }
          : undefined,
    sqliteAddon: () => undefined,
    dispatcher: options.dispatcher,
    onSignal(handler) {
      signals.on("signal", handler);
      return () => signals.off("signal", handler);
    },
  };
  const result = run(args, ctx).then(async (code) => {
    // Whatever the command wrote before it returned is in the buffers once the streams have flushed.
    await new Promise<void>((resolve) => setImmediate(resolve));
    return { code, signal: null, stdout: out.text(), stderr: err.text() };
  });
  return {
    result,
    stdout: out.text,
    stderr: err.text,
    signal: (name) => signals.emit("signal", name),
    signalHandlers: () => signals.listenerCount("signal"),
    waitFor: (stream, pattern) => waitForText(stream === "stdout" ? out : err, pattern, result),
  };
}

function waitForText(captured: Captured, pattern: RegExp, result: Promise<CliResult>): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const text = captured.text();
      if (!pattern.test(text)) return false;
      captured.stream.off("data", check);
      resolve(text);
      return true;
    };
    if (check()) return;
    // Registered after capture()'s own listener, so the text checked includes the chunk just written.
    captured.stream.on("data", check);
    result.then((ended) => {
      if (check()) return;
      captured.stream.off("data", check);
      reject(new Error(`the command returned ${ended.code} before ${pattern} appeared: ${ended.stderr}`));
    }, reject);
  });
}

/** Runs one command line in this process and returns what a child process would have: code and output. */
export function runInProcess(args: readonly string[], options: InProcessOptions = {}): Promise<CliResult> {
  return startInProcess(args, options).result;
}
