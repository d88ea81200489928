/**
 * A command's data output: `-o PATH` (atomic for a regular file, direct for a device or named pipe),
 * relative to the command's folder (ctx.cwd), or stdout (no path, or `-`). An output that cannot be
 * opened or written is one error kind everywhere: OutputError, exit 1, naming the target as typed and
 * the system's reason.
 */

import { OutputError } from "../../core/errors";
import { fileSink } from "../../io/file-sink";
import { checkOutputTarget, checkReplaceable, isStreamTarget } from "../../io/output-target";
import { type Sink, SinkError, STDOUT_NAME, stdoutSink } from "../../io/sink";
import type { EngineContext } from "../context";
import { folderProblem, folderRefusal } from "../plan/output-folder";
import { isStdoutPath } from "../plan/output-spec";

/** `-` names stdout, as in most Unix tools. */
/** Refuses at once a target no export can go into (a folder, a disk), before any other check or request. */
export function checkOutput(ctx: Pick<EngineContext, "cwd">, path: string | undefined): Promise<void> {
  return refusedEarly(ctx, path, checkOutputTarget);
}

/** True when `-o PATH` is a named pipe or a device that a program reads (stdout as `-` is not a path). */
export async function isStreamOutput(ctx: Pick<EngineContext, "cwd">, path: string | undefined): Promise<boolean> {
  return path !== undefined && !isStdoutPath(path) && (await isStreamTarget(path, ctx.cwd));
}

/**
 * What opening the output would refuse, found without opening it: a folder missing or not a folder is refused
 * as `report -o` refuses it (exit 2, with the mkdir that mends it); one closed to new files as an output error.
 */
export async function checkOutputFolder(ctx: Pick<EngineContext, "cwd">, path: string | undefined): Promise<void> {
  if (path === undefined || isStdoutPath(path)) return;
  const problem = await folderProblem(ctx.cwd, path);
  if (problem !== undefined) throw folderRefusal(problem);
  return refusedEarly(ctx, path, checkReplaceable);
}

/** `check`'s refusal of a file target, as the output error an export would have met. */
async function refusedEarly(
  ctx: Pick<EngineContext, "cwd">,
  path: string | undefined,
  check: (path: string, cwd: string) => Promise<unknown>,
): Promise<void> {
  if (path === undefined || isStdoutPath(path)) return;
  try {
    await check(path, ctx.cwd);
  } catch (error) {
    throw outputError(error, undefined) ?? error;
  }
}

/**
 * `beforeFirstWrite` lets a progress display leave the terminal first; `signal` stops a wait for a named
 * pipe's reader (Ctrl-C) with its reason.
 */
export async function openOutput(
  ctx: Pick<EngineContext, "cwd" | "io">,
  path: string | undefined,
  options: { beforeFirstWrite?: () => void; signal?: AbortSignal } = {},
): Promise<Sink> {
  const out = ctx.io.out;
  const { beforeFirstWrite, signal } = options;
  if (path === undefined || isStdoutPath(path)) return stdoutSink(out, beforeFirstWrite);
  try {
    return await fileSink(path, ctx.cwd, { out, beforeFirstWrite }, signal);
  } catch (error) {
    throw outputError(error, undefined) ?? error;
  }
}

/**
 * The error to throw for a failed export, or undefined when the output did not fail. The sink's own failure
 * comes first (what a formatter threw may be its consequence). A reader of stdout that went away
 * (`| head`) stays the broken-pipe error the CLI ends quietly on; a named pipe's reader that went away is
 * a failure.
 */
export function outputError(error: unknown, sink: Sink | undefined): Error | undefined {
  const failure = sink?.failure() ?? (error instanceof SinkError ? error : undefined);
  if (!failure) return undefined;
  if (failure.target === STDOUT_NAME && failure.code === "EPIPE") return failure;
  const message =
    failure.target === STDOUT_NAME
      ? `could not write to standard output: ${failure.reason}`
      : `cannot write ${failure.target}: ${failure.reason}`;
  return new OutputError(message, { cause: failure });
}
