/** Runs one command line and turns whatever happened into an exit code (docs/service.md §9). */
import { CommanderError, type CommandUnknownOpts } from "@commander-js/extra-typings";
import type { Context } from "../commands/context";
import { ExitCode } from "../core/exit-codes";
import type { IOStreams } from "../io/iostreams";
import { reportActionFailure } from "./action-failure";
import { buildProgram } from "./program";

export interface RunHooks {
  /**
   * Called with the words of the command about to run (`["serve", "start"]`) once its flags have parsed;
   * not for help, the version or a flag commander refuses.
   */
  beforeAction?(command: readonly string[], flags: Readonly<Record<string, unknown>>): void | Promise<void>;
  /** Failures the caller handles itself (the front's hand-over), thrown on rather than reported. */
  rethrow?(error: unknown): boolean;
}

export async function run(argv: readonly string[], ctx: Context, hooks: RunHooks = {}): Promise<number> {
  const program = await buildProgram({ ...ctx, argv }, argv);
  const { beforeAction } = hooks;
  // On each command, after the hooks the command set itself (its cheap refusals run first).
  for (const command of beforeAction ? program.commands : []) {
    command.hook("preAction", (_, action) => beforeAction?.(commandWords(action), action.opts()));
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
  return reportActionFailure(error, io, debug);
}
