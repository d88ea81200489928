/**
 * The exit code of what a command's action threw, and its message on stderr (docs/service.md §9): for
 * run() (main.ts) and for a report run with the flags the front parsed (parsed-report.ts), which loads no
 * commander.
 */
import { AdreportError, exitCodeOf, isSystemError } from "../core/errors";
import { ExitCode } from "../core/exit-codes";
import { errorCode, tagLine } from "../core/log-codes";
import { printable, printableLines } from "../core/printable";
import { reasonInWords } from "../io/errno-words";
import type { IOStreams } from "../io/iostreams";

export function reportActionFailure(error: unknown, io: IOStreams, debug: boolean): number {
  if (isBrokenPipe(error)) return ExitCode.ok;
  // Messages quote names and what a service said: one line each, never a control character raw.
  const exitCode = exitCodeOf(error);
  // For JSON logs (core/log-codes.ts): what each line is; nothing for text.
  const says = (code: Parameters<typeof tagLine>[1]["code"], fields?: Record<string, unknown>) =>
    tagLine(io.err, { code, fields: { exit_code: exitCode, ...fields } });
  if (error instanceof AdreportError) {
    if (error.said) return error.exitCode;
    says(errorCode(exitCode, error.name === "QuotaError"));
    io.err.write(`adreport: ${printable(error.message)}\n`);
    if (error.hint) says("hint");
    if (error.hint) io.err.write(`hint: ${printable(error.hint)}\n`);
  } else if (isSystemError(error)) {
    // The machine refused something no command expected to fail (exit 1): its reason, not a bug report.
    const where = typeof error.path === "string" ? `: ${error.path}` : "";
    says("error.system", { errno: error.code, ...(typeof error.path === "string" && { path: error.path }) });
    io.err.write(`adreport: ${printable(`${reasonInWords(error)}${where}`)} (${error.code})\n`);
    if (debug && error.stack) says("debug");
    if (debug && error.stack) io.err.write(`${printableLines(error.stack)}\n`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    says("error.internal");
    io.err.write(`adreport: internal error: ${printable(message)}\n`);
    if (debug && error instanceof Error && error.stack) {
      says("debug");
      io.err.write(`${printableLines(error.stack)}\n`);
    } else {
      says("hint");
      io.err.write(
        "hint: this is a bug; please report it with the command you ran (ADREPORT_DEBUG=1 shows where it happened)\n",
      );
    }
  }
  return exitCode;
}

/** A reader that went away (`| head`) is a normal end for a pipeline, not a failure. */
function isBrokenPipe(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === "EPIPE";
}
