/**
 * A command's Context held in memory, for tests that call the planner or the engine directly: stdout and
 * stderr captured, a clean environment with a fresh HOME, a working folder of its own, a fixed clock, the
 * dispatcher HTTP requests go to, and signals the test delivers. The CLI itself in-process is
 * run-cli-in-process.ts.
 */
import { EventEmitter } from "node:events";
import { PassThrough, Readable } from "node:stream";
import type { Dispatcher } from "undici";
import type { Context } from "../../src/commands/context";
import type { IOStreams } from "../../src/io/iostreams";
import { tempDir } from "./temp";

export interface MemoryContextOptions {
  /** Added to PATH and a fresh HOME; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  now?: Date;
  dispatcher?: Dispatcher;
  outIsTTY?: boolean;
}

export interface MemoryContext {
  ctx: Context;
  stdout(): string;
  stderr(): string;
  /** Delivers a signal to every handler the code under test registered through ctx.onSignal. */
  signal(name: NodeJS.Signals): void;
  /** How many signal handlers are registered now: a run that ended has let go of its own. */
  signalHandlers(): number;
}

function captured(): { stream: PassThrough; text(): string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

export function memoryContext(options: MemoryContextOptions = {}): MemoryContext {
  const out = captured();
  const err = captured();
  const env: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: tempDir("adreport-home-") };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const io: IOStreams = {
    in: Readable.from([]),
    out: out.stream,
    err: err.stream,
    inIsTTY: false,
    outIsTTY: options.outIsTTY ?? false,
    errIsTTY: false,
    color: false,
    outColor: false,
    columns: 80,
    errColumns: 0,
  };
  const signals = new EventEmitter();
  const now = options.now ?? new Date("2026-11-23T10:00:00Z");
  const ctx: Context = {
    io,
    env,
    cwd: options.cwd ?? tempDir("adreport-cwd-"),
    version: "0.0.0-test",
    now: () => new Date(now.getTime()),
    user: process.getuid && process.getgid ? { uid: process.getuid(), gid: process.getgid() } : undefined,
    sqliteAddon: () => undefined,
    dispatcher: options.dispatcher,
    onSignal(handler) {
      signals.on("signal", handler);
      return () => signals.off("signal", handler);
    },
  };
  return {
    ctx,
    stdout: out.text,
    stderr: err.text,
    signal: (name) => signals.emit("signal", name),
    signalHandlers: () => signals.listenerCount("signal"),
  };
}
