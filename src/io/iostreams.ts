/**
 * The streams a command talks through. Data goes to `out`, everything meant for a person to `err`.
 * Tests build one over buffers; the real one wraps the process's own streams.
 */
import { fstatSync } from "node:fs";
import type { Readable, Writable } from "node:stream";

export interface IOStreams {
  readonly in: Readable;
  readonly out: Writable;
  readonly err: Writable;
  readonly inIsTTY: boolean;
  readonly outIsTTY: boolean;
  readonly errIsTTY: boolean;
  /** Colour on stderr (see colorWanted). */
  readonly color: boolean;
  /** Colour on stdout (see colorWanted); a file written with --output never gets any. */
  readonly outColor: boolean;
  /** Width of the terminal stdout goes to, or 80. */
  readonly columns: number;
  /** Width of the terminal stderr goes to; 0 when unknown (some pseudo-terminals say 0). */
  readonly errColumns: number;
}

/**
 * Whether a stream gets colour: FORCE_COLOR decides when set (`0` or `false` for none, anything else for
 * colour, as Node reads it), then a non-empty NO_COLOR (no-color.org) or TERM=dumb turns it off, and
 * otherwise the stream must be a terminal. Decided per stream: stdout piped to a file while stderr is a
 * terminal gets none.
 */
export function colorWanted(isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return isTTY;
}

/** Linux's memory devices (/dev/null, /dev/full, /dev/zero): character devices that are never terminals. */
const MEMORY_DEVICES_MAJOR = 1;

/**
 * Whether a descriptor is a terminal. Node's own test (tty.isatty) loads the tty module, and with it the
 * net and stream modules, a few milliseconds of every start: a file, a pipe or /dev/null is told without it.
 */
export function isTerminal(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    if (!stat.isCharacterDevice() || (process.platform === "linux" && stat.rdev >> 8 === MEMORY_DEVICES_MAJOR)) {
      return false;
    }
  } catch {
    return false;
  }
  return process.getBuiltinModule("node:tty").isatty(fd);
}

export function processStreams(env: NodeJS.ProcessEnv = process.env): IOStreams {
  const outIsTTY = isTerminal(1);
  const errIsTTY = isTerminal(2);
  // The process's streams are made when first touched: stdin's alone costs a few milliseconds of start-up
  // (a socket, or a file stream, and the stream modules), and help or a refused flag never reads it.
  return {
    get in() {
      return process.stdin;
    },
    get out() {
      return process.stdout;
    },
    get err() {
      return process.stderr;
    },
    inIsTTY: isTerminal(0),
    outIsTTY,
    errIsTTY,
    color: colorWanted(errIsTTY, env),
    outColor: colorWanted(outIsTTY, env),
    get columns() {
      return (outIsTTY && process.stdout.columns) || 80;
    },
    get errColumns() {
      return errIsTTY ? (process.stderr.columns ?? 0) : 0;
    },
  };
}
