/**
 * The run's telemetry, when --metrics-file or an OpenTelemetry variable asks for it (entry.ts loads this
 * only then): an observer the command tells what happens (commands/telemetry.ts), and at the end the
 * metrics file written and the trace and figures sent, within a bound. A SIGTERM that no command is
 * handling (the run has not started its requests) still sends them before the process dies of it.
 */
import type { RunObserver } from "../../commands/telemetry";
import { isSystemError } from "../../core/errors";
import { tagLine } from "../../core/log-codes";
import { printable } from "../../core/printable";
import { reasonInWords } from "../../io/errno-words";
import type { IOStreams } from "../../io/iostreams";
import { type AccountFigures, FiguresObserver } from "./figures";
import type { Exporters, PreparedOtel } from "./otel-export";
import type { OtelChoice } from "./otel-wanted";
import { writeMetricsFiles } from "./prometheus";
import { recordedSpan, TraceRecorder } from "./trace-record";

export interface TelemetryOptions {
  readonly command: string;
  readonly metricsFile: string | undefined;
  readonly otel: OtelChoice | undefined;
  readonly cwd: string;
  readonly version: string;
  readonly io: IOStreams;
}

interface Loaded {
  readonly exportToOtel: typeof import("./otel-export").exportToOtel;
  readonly prepared: PreparedOtel;
}

export interface RunTelemetry {
  readonly observer: RunObserver;
  /** Writes and sends what the run did, once; the exit code says how it ended. */
  finish(exitCode: number): Promise<void>;
}

export function startTelemetry(options: TelemetryOptions): RunTelemetry {
  const accounts: AccountFigures[] = [];
  const run = recordedSpan(`adreport ${options.command}`, "internal", { "adreport.command": options.command });
  const trace = options.otel ? new TraceRecorder(run, undefined, true) : undefined;
  const observer = new FiguresObserver(undefined, accounts, trace);
  // The SDK loads beside the run rather than after it (about 100 ms of its own).
  const otel = options.otel;
  const sdk = otel
    ? Promise.all([
        import("./otel-export"),
        otel.protocol === "http/json" ? import("./otlp-json") : import("./otlp-proto"),
      ])
        .then(([module, exporters]) => ({
          exportToOtel: module.exportToOtel,
          prepared: module.prepareOtel(exporters as Exporters, otel, options.version),
        }))
        .catch((error: unknown) => error)
    : undefined;
  let finished: Promise<void> | undefined;
  const finish = (exitCode: number) => {
    finished ??= (async () => {
      const endedMs = Date.now();
      trace?.close(endedMs);
      run.end = endedMs;
      run.attributes["process.exit.code"] = exitCode;
      if (exitCode !== 0) run.error = `exit code ${exitCode}`;
      // A run over several accounts counts in theirs, not in the run's own.
      const counted = accounts.length > 1 ? accounts.filter((figures) => figures.profile !== undefined) : accounts;
      // A line that exported nothing and failed nothing (--dry-run) leaves the job's figures as they are.
      const ran = exitCode !== 0 || counted.some((figures) => figures.outcome !== undefined);
      await Promise.all([
        options.metricsFile === undefined || !ran
          ? undefined
          : writeMetricsFiles(options.metricsFile, options.cwd, counted, { endedMs, exitCode }).catch(
              (error: unknown) =>
                warn(
                  options.io,
                  `could not write --metrics-file ${printable(options.metricsFile ?? "")}: ${reason(error)}`,
                ),
            ),
        options.otel && sdk ? send(options.otel, sdk, run, counted, options) : undefined,
      ]);
    })();
    return finished;
  };
  stayForSigterm(() => finish(130));
  return { observer, finish };
}

async function send(
  otel: OtelChoice,
  sdk: Promise<unknown>,
  run: ReturnType<typeof recordedSpan>,
  accounts: readonly AccountFigures[],
  options: TelemetryOptions,
): Promise<void> {
  if (otel.unsupported !== undefined) {
    warn(
      options.io,
      `OpenTelemetry: protocol ${printable(otel.unsupported)} is not sent by adreport; using http/protobuf`,
    );
  }
  const loaded = await sdk;
  if (loaded instanceof Error || typeof loaded !== "object" || loaded === null || !("prepared" in loaded)) {
    warn(options.io, `OpenTelemetry: not sent: ${reason(loaded)}`);
    return;
  }
  const { exportToOtel, prepared } = loaded as Loaded;
  const outcome = await exportToOtel(prepared, otel, run, accounts, options.version).catch((error: unknown) => ({
    failed: reason(error),
  }));
  if (outcome.failed !== undefined)
    warn(options.io, `OpenTelemetry: the run's telemetry was not sent: ${outcome.failed}`);
}

function warn(io: IOStreams, text: string): void {
  tagLine(io.err, { code: "warning" });
  io.err.write(`adreport: warning: ${text}\n`);
}

function reason(error: unknown): string {
  if (isSystemError(error)) return reasonInWords(error);
  const text = error instanceof Error ? error.message : String(error);
  return printable(text.split("\n")[0]?.slice(0, 200) ?? "");
}

/**
 * A SIGTERM while no command listens for it (Node would end the process at once): the telemetry is sent
 * (bounded), then the signal is raised again, so the process ends by it as it would have.
 */
function stayForSigterm(finish: () => Promise<void>): void {
  const onSigterm = () => {
    if (process.listenerCount("SIGTERM") > 1) return;
    process.off("SIGTERM", onSigterm);
    void finish().finally(() => process.kill(process.pid, "SIGTERM"));
  };
  process.on("SIGTERM", onSigterm);
}
