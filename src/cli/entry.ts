/** The bundle's entry: what `bin/adreport` calls. */
import { setFlagsFromString } from "node:v8";
import { ExitCode } from "../core/exit-codes";
import { reasonInWords } from "../io/errno-words";
import { run } from "./main";
import { boundHeap } from "./memory";
import { systemContext } from "./system-context";

export async function main(): Promise<void> {
  // undici parses HTTP with llhttp compiled to WebAssembly. V8 recompiles it in the background with its
  // optimising compiler, which costs memory and time at exit (V8 waits for the job) for no measurable gain
  // on the bodies a report reads (figures in bench/README.md). Set before undici's first request compiles it.
  setFlagsFromString("--liftoff-only");
  // Exports, and `serve`, whose rendered pages are garbage of the same kind: unbounded, its memory grows far
  // above --cache-mb under a flood of distinct large pages, at no gain in throughput.
  if (process.argv[2] === "report" || process.argv[2] === "serve") boundHeap();
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
  process.exitCode = await run(process.argv.slice(2), ctx);
}
