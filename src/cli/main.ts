/** Runs one command line and turns whatever happened into an exit code (docs/service.md §9). */
import { CommanderError, type CommandUnknownOpts } from "@commander-js/extra-typings";
import type { Context } from "../commands/context";
import { AdreportError, exitCodeOf, isSystemError } from "../core/errors";
import { ExitCode } from "../core/exit-codes";
import { printable, printableLines } from "../core/printable";
import { reasonInWords } from "../io/errno-words";
import type { IOStreams } from "../io/iostreams";
import { buildProgram } from "./program";

export interface RunHooks {
  /**
   * Called with the words of the command about to run (`["serve", "start"]`) once its flags have parsed;
   * not for help, the version or a flag commander refuses.
   */
  beforeAction?(command: readonly string[]): void | Promise<void>;
  /** Failures the caller handles itself (the front's hand-over), thrown on rather than reported. */
  rethrow?(error: unknown): boolean;
}

export async function run(argv: readonly string[], ctx: Context, hooks: RunHooks = {}): Promise<number> {
  const program = await buildProgram({ ...ctx, argv }, argv);
  const { beforeAction } = hooks;
  // On each command, after the hooks the command set itself (its cheap refusals run first).
  for (const command of beforeAction ? program.commands : []) {
    command.hook("preAction", (_, action) => beforeAction?.(commandWords(action)));
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
    return ExitCode.ok;
  } catch (error) {
    if (hooks.rethrow?.(error)) throw error;
    return reportFailure(error, ctx.io, ctx.env.ADREPORT_DEBUG !== undefined);
  }
}

function commandWords(command: CommandUnknownOpts): string[] {
  const words: string[] = [];
  for (let at: CommandUnknownOpts | null = command; at?.parent; at = at.parent) words.unshift(at.name());
  return words;
}

function reportFailure(error: unknown, io: IOStreams, debug: boolean): number {
  if (error instanceof CommanderError) {
    // Commander has printed its message already; help and version end with 0.
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (isBrokenPipe(error)) return ExitCode.ok;
  // Messages quote names and what a service said: one line each, never a control character raw.
  if (error instanceof AdreportError) {
    io.err.write(`adreport: ${printable(error.message)}\n`);
    if (error.hint) io.err.write(`hint: ${printable(error.hint)}\n`);
  } else if (isSystemError(error)) {
    // The machine refused something no command expected to fail (exit 1): its reason, not a bug report.
    const where = typeof error.path === "string" ? `: ${error.path}` : "";
    io.err.write(`adreport: ${printable(`${reasonInWords(error)}${where}`)} (${error.code})\n`);
    if (debug && error.stack) io.err.write(`${printableLines(error.stack)}\n`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    io.err.write(`adreport: internal error: ${printable(message)}\n`);
    if (debug && error instanceof Error && error.stack) io.err.write(`${printableLines(error.stack)}\n`);
    else {
      io.err.write(
        "hint: this is a bug; please report it with the command you ran (ADREPORT_DEBUG=1 shows where it happened)\n",
      );
    }
  }
  return exitCodeOf(error);
}

/** A reader that went away (`| head`) is a normal end for a pipeline, not a failure. */
function isBrokenPipe(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === "EPIPE";
}
