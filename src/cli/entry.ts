/**
 * The bundle's entry: what `bin/adreport` calls. Start-up loads only commander and the flag definitions
 * (main.ts); each command loads its own libraries when it runs.
 */
import { ExitCode } from "../core/exit-codes";
import { reasonInWords } from "../io/errno-words";
import { systemContext } from "./system-context";
import { asksVersionOnly, versionLine } from "./version";

export async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const ctx = systemContext();
  let stdoutFailure: Error | undefined;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    // The reader closed the pipe (`| head`): stop quietly, as other Unix tools do.
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    stdoutFailure ??= error;
  });
  // Any other failure (`> /dev/full`, a full disk) is a failed command, even where no export noticed it
  // (help, `keys list`): an export that said so already has its exit code.
  process.once("exit", () => {
    if (stdoutFailure === undefined || (process.exitCode ?? 0) !== 0) return;
    process.stderr.write(`adreport: could not write to standard output: ${reasonInWords(stdoutFailure)}\n`);
    process.exitCode = ExitCode.failed;
  });
  // Answered before commander and the flag definitions load (program.ts prints the same line for `-V`
  // among other words).
  if (asksVersionOnly(argv)) {
    ctx.io.out.write(`${versionLine(ctx.version)}\n`);
    return;
  }
  // A command left waiting on something nothing will end would let Node exit 0 with the work undone: a
  // cron job would count a run that did nothing as done. Never 0 then.
  let finished = false;
  process.once("beforeExit", () => {
    if (finished) return;
    process.stderr.write("adreport: internal error: the command stopped before it finished; nothing may be complete\n");
    process.exitCode = ExitCode.internal;
  });
  const { run } = await import("./main");
  process.exitCode = await run(argv, ctx, { beforeAction: settleHeap });
  finished = true;
}

/**
 * Exports, and `serve`, whose rendered pages are garbage of the same kind: unbounded, their memory grows
 * far above what is alive (src/cli/memory.ts). Applied once such a command's flags have parsed, so that
 * its --help and commander's refusals load nothing of it.
 */
async function settleHeap(command: readonly string[]): Promise<void> {
  if (command[0] !== "report" && command[0] !== "serve") return;
  const server = command[0] === "serve" && (command[1] === "start" || command[1] === "replay");
  (await import("./memory")).boundHeap({ server });
}
