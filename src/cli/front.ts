/**
 * The front: a CommonJS bundle of the flag definitions and commander (dist/front.cjs, scripts/build.mjs)
 * that answers `--version`, help and every refusal of bad flags without Node's ES module loader, the
 * chunks or the process's stream objects: about 20 ms less, 1.1-1.25x `node -e 0` instead of 1.35-1.45x
 * (issue 23). It parses the line with the same code as the full build (main.ts), writing to buffers; the
 * moment the line needs anything more (a command's action, an import, a stream's other methods, stdin, a
 * signal handler) it drops what it wrote and hands the line over, untouched, to the ES module build.
 */
import { writeSync } from "node:fs";
import type { Writable } from "node:stream";
import type { Context } from "../commands/context";
import { ExitCode } from "../core/exit-codes";
import { jsonLogLines, jsonLogsWanted, type LineTag, LOG_TAG } from "../core/log-codes";
import { reasonInWords } from "../io/errno-words";
import type { IOStreams } from "../io/iostreams";
import { HandOver } from "./hand-over";
import { run } from "./main";
import { systemContext } from "./system-context";
import { asksVersionOnly, versionLine } from "./version";

/** What was written to standard output (1) and error (2), in order, with what its writer said it is. */
type Written = [fd: 1 | 2, text: string, tag?: LineTag][];

/**
 * A stream that keeps what is written; any other use of it is more than the front does. `json`: standard
 * error in JSON logs, which takes what its writer says the next line is (core/log-codes.ts).
 */
function buffer(fd: 1 | 2, written: Written, json = false): Writable {
  let tag: LineTag | undefined;
  const write = (text: unknown, ...rest: unknown[]): boolean => {
    written.push([fd, String(text), tag]);
    tag = undefined;
    const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
    if (callback) queueMicrotask(callback);
    return true;
  };
  const tagged = (next: LineTag) => {
    tag = next;
  };
  return new Proxy((json ? { [LOG_TAG]: tagged } : {}) as Writable, {
    get(target, key) {
      if (key === "write") return write;
      if (key === LOG_TAG && json) return (target as unknown as Record<symbol, unknown>)[LOG_TAG];
      throw new HandOver();
    },
  });
}

/** The words of the command whose action the last line handed over reached (its flags parsed and checked). */
let reached: readonly string[] | undefined;
/** That command's flags, as its action would receive them. */
let reachedWith: Readonly<Record<string, unknown>> | undefined;

/**
 * `["report"]` when the line handed over is one the front parsed up to `report`'s action: the full build
 * can load that action's modules beside its own start (entry.ts). Undefined when it handed over for
 * anything else.
 */
export function reachedAction(): readonly string[] | undefined {
  return reached;
}

/**
 * The flags of the action reachedAction() names, parsed and checked by the same code as the full build's:
 * for `report`, the full build runs the action with them instead of parsing the line again (entry.ts).
 */
export function reachedFlags(): Readonly<Record<string, unknown>> | undefined {
  return reachedWith;
}

/** Where the front writes what it answers: the process's own standard output and error. */
export interface AnswerFds {
  out: number;
  err: number;
}

/** The exit code of a command line the front answered, or undefined when the full build must run it. */
export async function answer(
  argv: readonly string[],
  fds: AnswerFds = { out: 1, err: 2 },
): Promise<number | undefined> {
  reached = undefined;
  reachedWith = undefined;
  const system = systemContext();
  if (asksVersionOnly(argv)) return answered([[1, `${versionLine(system.version)}\n`]], ExitCode.ok, fds);
  const written: Written = [];
  const json = jsonLogsWanted(argv, process.env);
  const io: IOStreams = Object.create(system.io, {
    out: { value: buffer(1, written) },
    err: { value: buffer(2, written, json) },
    in: {
      get() {
        throw new HandOver();
      },
    },
  });
  const ctx: Context = {
    ...system,
    io,
    sqliteAddon: () => {
      throw new HandOver();
    },
    onSignal: () => {
      throw new HandOver();
    },
  };
  const isHandOver = (error: unknown) => error instanceof HandOver;
  let code: number;
  try {
    code = await run(argv, ctx, {
      // `help report` only writes what `report --help` does; every other action does work.
      beforeAction: (command, flags) => {
        if (command[0] === "help") return;
        reached = command;
        reachedWith = flags;
        throw new HandOver();
      },
      rethrow: isHandOver,
    });
  } catch (error) {
    if (isHandOver(error)) return undefined;
    throw error;
  }
  return answered(written, code, fds, json);
}

function answered(written: Written, code: number, fds: AnswerFds, json = false): number {
  let failure: NodeJS.ErrnoException | undefined;
  let errFailed = false;
  const said = (text: string, tag?: LineTag) => (json ? jsonLogLines(text, tag, new Date()) : text);
  for (const [fd, text, tag] of written) {
    if (fd === 2) errFailed = !writeErr(fds.err, said(text, tag)) || errFailed;
    else if (failure === undefined) failure = writeOut(fds.out, text);
  }
  // As the full build, whose process.stderr fails the process with 1 (an output that could not be
  // written) whatever the line's own code: `adreport --bad-flag 2>/dev/full` is 1 either way.
  if (errFailed) return ExitCode.failed;
  // As the full build's entry: a reader that closed the pipe ends it quietly, any other failure is said.
  if (failure === undefined || failure.code === "EPIPE" || code !== ExitCode.ok) return code;
  const line = `adreport: could not write to standard output: ${reasonInWords(failure)}\n`;
  writeErr(fds.err, said(line, { code: "error.output", fields: { exit_code: ExitCode.failed } }));
  return ExitCode.failed;
}

function writeOut(fd: number, text: string): NodeJS.ErrnoException | undefined {
  try {
    writeAll(fd, text);
    return undefined;
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}

/** Standard error, if it can be written at all (whether it was): there is nowhere else to say it could not. */
function writeErr(fd: number, text: string): boolean {
  try {
    writeAll(fd, text);
    return true;
  } catch {
    return false;
  }
}

/** The whole text, however many writes a pipe takes (waiting where its other end is non-blocking). */
function writeAll(fd: number, text: string): void {
  let bytes = Buffer.from(text);
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}
