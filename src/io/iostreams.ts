/**
 * The streams a command talks through. Data goes to `out`, everything meant for a person to `err`.
 * Tests build one over buffers; the real one wraps the process's own streams.
 */
import type { Readable, Writable } from "node:stream";

export interface IOStreams {
  readonly in: Readable;
  readonly out: Writable;
  readonly err: Writable;
  readonly inIsTTY: boolean;
  readonly outIsTTY: boolean;
  readonly errIsTTY: boolean;
  /** Colour on stderr: a terminal and no NO_COLOR. */
  readonly color: boolean;
  /** Width of the terminal stdout goes to, or 80. */
  readonly columns: number;
  /** Width of the terminal stderr goes to; 0 when unknown (some pseudo-terminals say 0). */
  readonly errColumns: number;
}

export function processStreams(env: NodeJS.ProcessEnv = process.env): IOStreams {
  const outIsTTY = process.stdout.isTTY === true;
  const errIsTTY = process.stderr.isTTY === true;
  return {
    in: process.stdin,
    out: process.stdout,
    err: process.stderr,
    inIsTTY: process.stdin.isTTY === true,
    outIsTTY,
    errIsTTY,
    color: errIsTTY && env.NO_COLOR === undefined,
    columns: process.stdout.columns || 80,
    errColumns: process.stderr.columns ?? 0,
  };
}
