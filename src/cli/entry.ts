/**
 * The bundle's entry: what `bin/adreport` calls. Start-up loads only commander and the flag definitions
 * (main.ts); each command loads its own libraries when it runs.
 */
import { ExitCode } from "../core/exit-codes";
import { commandWord, globalFlag } from "../core/global-flags";
import { tagLine } from "../core/log-codes";
import { reasonInWords } from "../io/errno-words";
import { systemContext } from "./system-context";
import { otelWanted } from "./telemetry/otel-wanted";
import { asksVersionOnly, versionLine } from "./version";

/**
 * `reachedAction`: the command whose action the front reached before it handed the line over, and
 * `reachedFlags` the flags it parsed for that action (front.ts).
 */
export async function main(
  reachedAction?: readonly string[],
  reachedFlags?: Readonly<Record<string, unknown>>,
): Promise<void> {
  const argv = process.argv.slice(2);
  const system = systemContext();
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
    tagLine(system.io.err, { code: "error.output", fields: { exit_code: ExitCode.failed } });
    system.io.err.write(`adreport: could not write to standard output: ${reasonInWords(stdoutFailure)}\n`);
    process.exitCode = ExitCode.failed;
  });
  // Answered before commander and the flag definitions load (program.ts prints the same line for `-V`
  // among other words).
  if (asksVersionOnly(argv)) {
    system.io.out.write(`${versionLine(system.version)}\n`);
    return;
  }
  // A command left waiting on something nothing will end would let Node exit 0 with the work undone: a
  // cron job would count a run that did nothing as done. Never 0 then.
  let finished = false;
  process.once("beforeExit", () => {
    if (finished) return;
    tagLine(system.io.err, { code: "error.internal", fields: { exit_code: ExitCode.internal } });
    system.io.err.write("adreport: internal error: the command stopped before it finished; nothing may be complete\n");
    process.exitCode = ExitCode.internal;
  });
  // Loaded only when asked for: a run without it loads nothing of it.
  const telemetry = await telemetryFor(argv, system);
  const ctx = telemetry ? { ...system, observer: telemetry.observer } : system;
  // A line the front parsed up to an action (bin/adreport says which) loads that action's modules beside
  // main's: each `await import()` one after another is a round of Node's module loader (issue 35). Run
  // alone (the single binary, tests), the full build loads them only once the flags have parsed.
  // A module that fails to load here fails again where the action imports it, and is reported there.
  const early = reachedAction && loadAction(reachedAction).catch(() => undefined);
  if (isReport(reachedAction) && reachedFlags !== undefined) {
    // The front parsed and checked this line with the same code: its flags run the action as they are,
    // without commander and the flag definitions loaded and the line parsed a second time (issue 35).
    const [{ runParsedReport }] = await Promise.all([import("./parsed-report"), early]);
    process.exitCode = await runParsedReport(argv, ctx, reachedFlags, settleHeap);
  } else {
    const [{ run }] = await Promise.all([import("./main"), early]);
    process.exitCode = await run(argv, ctx, { beforeAction: settleHeap });
  }
  await telemetry?.finish(Number(process.exitCode ?? 0));
  finished = true;
}

/** --metrics-file and OpenTelemetry (OTEL_EXPORTER_OTLP_ENDPOINT...), for `report`. */
async function telemetryFor(argv: readonly string[], ctx: ReturnType<typeof systemContext>) {
  const metricsFile = globalFlag(argv, "--metrics-file");
  const otel = otelWanted(ctx.env);
  const command = commandWord(argv);
  if ((metricsFile === undefined && otel === undefined) || command !== "report") return undefined;
  const { startTelemetry } = await import("./telemetry/start");
  return startTelemetry({ command, metricsFile, otel, cwd: ctx.cwd, version: ctx.version, io: ctx.io });
}

/**
 * Exports, and `serve`, whose rendered pages are garbage of the same kind: unbounded, their memory grows
 * far above what is alive (src/cli/memory.ts). Applied once such a command's flags have parsed, so that
 * its --help and commander's refusals load nothing of it.
 */
async function settleHeap(command: readonly string[], flags: Readonly<Record<string, unknown>>): Promise<void> {
  if (!boundsHeap(command)) return;
  const server = command[0] === "serve" && (command[1] === "start" || command[1] === "replay");
  const { boundHeap, heapKindOf } = await import("./memory");
  boundHeap(heapKindOf(command, flags), { server });
}

function boundsHeap(command: readonly string[]): boolean {
  return command[0] === "report" || command[0] === "serve";
}

function isReport(command: readonly string[] | undefined): boolean {
  return command?.length === 1 && command[0] === "report";
}

/** The modules an action the front reached will load first: the heap bound and, for `report`, the export. */
async function loadAction(command: readonly string[]): Promise<void> {
  await Promise.all([
    boundsHeap(command) ? import("./memory") : undefined,
    isReport(command) ? import("../commands/report/plan") : undefined,
  ]);
}
