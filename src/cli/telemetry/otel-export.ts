/**
 * The run's trace and figures handed to OpenTelemetry's SDK and sent by its OTLP/HTTP exporters, as the
 * standard variables say (OTEL_EXPORTER_OTLP_ENDPOINT, _TRACES_/_METRICS_ENDPOINT, _PROTOCOL, _HEADERS,
 * OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES). Loaded only when one is set (otel-wanted.ts), in a chunk of
 * its own. Everything is sent once, at the end, within `timeoutMs`: a collector that is down or never
 * answers delays the run's exit by no more.
 */
import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { ExportResultCode } from "@opentelemetry/core";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { AccountFigures } from "./figures";
import { otelFailureWords } from "./otel-failure";
import type { OtelChoice } from "./otel-wanted";
import type { RecordedSpan } from "./trace-record";

export interface OtelOutcome {
  /** Why something was not sent, when it was not. */
  readonly failed: string | undefined;
}

/** The exporters of one protocol: otlp-proto.ts or otlp-json.ts, loaded beside this module. */
export type Exporters = typeof import("./otlp-proto");

/** What the export needs, made while the run still fetches (a cold start of the SDK's code is not free). */
export interface PreparedOtel {
  readonly resource: ReturnType<typeof defaultResource>;
  readonly traceExporter: SpanExporter | undefined;
  readonly metricExporter: PushMetricExporter | undefined;
}

export function prepareOtel(exporters: Exporters, choice: OtelChoice, version: string): PreparedOtel {
  const exporterConfig = { timeoutMillis: choice.timeoutMs };
  return {
    resource: defaultResource()
      .merge(resourceFromAttributes({ "service.name": "adreport", "service.version": version }))
      .merge(detectResources({ detectors: [envDetector] })),
    traceExporter: choice.traces ? new exporters.TraceExporter(exporterConfig) : undefined,
    metricExporter: choice.metrics ? new exporters.MetricExporter(exporterConfig) : undefined,
  };
}

export async function exportToOtel(
  prepared: PreparedOtel,
  choice: OtelChoice,
  run: RecordedSpan,
  accounts: readonly AccountFigures[],
  version: string,
): Promise<OtelOutcome> {
  const { resource } = prepared;
  const failures: string[] = [];
  const noted = (result: { code: ExportResultCode; error?: Error | undefined }) => {
    if (result.code !== ExportResultCode.SUCCESS) failures.push(otelFailureWords(result.error));
  };
  const work: Promise<unknown>[] = [];
  if (prepared.traceExporter) {
    const exporter = watched(prepared.traceExporter, noted);
    const provider = new BasicTracerProvider({
      resource,
      spanProcessors: [
        new BatchSpanProcessor(exporter, {
          maxQueueSize: 1_000_000,
          maxExportBatchSize: 2048,
          exportTimeoutMillis: choice.timeoutMs,
        }),
      ],
    });
    replay(provider.getTracer("adreport", version), run, ROOT_CONTEXT);
    work.push(provider.shutdown());
  }
  if (prepared.metricExporter) {
    const exporter = watchedMetrics(prepared.metricExporter, noted);
    const reader = new PeriodicExportingMetricReader({
      exporter,
      exportIntervalMillis: 3_600_000,
      exportTimeoutMillis: choice.timeoutMs,
    });
    const provider = new MeterProvider({ resource, readers: [reader] });
    recordFigures(provider, accounts, version);
    // Shutting down collects and sends once (a flush before it would send the figures twice).
    work.push(provider.shutdown());
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((done) => {
    timer = setTimeout(() => done("late"), choice.timeoutMs + 250);
    timer.unref();
  });
  const settled = await Promise.race([Promise.allSettled(work), late]);
  clearTimeout(timer);
  if (settled === "late") return { failed: `no answer within ${choice.timeoutMs} ms` };
  return { failed: failures[0] };
}

/** The recorded spans as the SDK's, with their own times, children under their parents. */
function replay(tracer: Tracer, recorded: RecordedSpan, parent: Context): void {
  const span: Span = tracer.startSpan(
    recorded.name,
    {
      kind: recorded.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL,
      startTime: recorded.start,
      attributes: recorded.attributes,
    },
    parent,
  );
  for (const event of recorded.events) span.addEvent(event.name, event.attributes, event.time);
  if (recorded.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: recorded.error });
  const inside = trace.setSpan(parent, span);
  for (const child of recorded.children) replay(tracer, child, inside);
  span.end(recorded.end ?? Date.now());
}

/** The figures as counters, one data point per account (its profile and job as attributes). */
function recordFigures(provider: MeterProvider, accounts: readonly AccountFigures[], version: string): void {
  const meter = provider.getMeter("adreport", version);
  const counters = {
    rows: meter.createCounter("adreport.rows", { description: "Rows exported", unit: "{row}" }),
    requests: meter.createCounter("adreport.requests", {
      description: "Requests sent, retries included",
      unit: "{request}",
    }),
    retries: meter.createCounter("adreport.retries", { description: "Requests that were retries", unit: "{request}" }),
    throttled: meter.createCounter("adreport.throttled", { description: "Answers 429", unit: "{request}" }),
    throttledSeconds: meter.createCounter("adreport.throttled.duration", {
      description: "Time waited for the service's rate limits",
      unit: "s",
    }),
    bytes: meter.createCounter("adreport.bytes", { description: "Bytes of the answers read", unit: "By" }),
    daysWritten: meter.createCounter("adreport.days.written", { description: "Whole days written", unit: "{day}" }),
    daysRestated: meter.createCounter("adreport.days.restated", {
      description: "Days found changed since they were written",
      unit: "{day}",
    }),
  };
  for (const figures of accounts) {
    const attributes: Attributes = {
      ...(figures.profile !== undefined && { "adreport.profile": figures.profile }),
      ...(figures.job !== undefined && { "adreport.job": figures.job }),
      "adreport.outcome": figures.outcome ?? "stopped",
    };
    counters.rows.add(figures.rows, attributes);
    counters.requests.add(figures.requests, attributes);
    counters.retries.add(figures.retries, attributes);
    counters.throttled.add(figures.throttled, attributes);
    counters.throttledSeconds.add(figures.throttledMs / 1000, attributes);
    counters.bytes.add(figures.bytes, attributes);
    counters.daysWritten.add(figures.daysWritten, attributes);
    counters.daysRestated.add(figures.daysRestated, attributes);
  }
}

type Noted = (result: { code: ExportResultCode; error?: Error | undefined }) => void;

/** The exporter, with each export's result noted. */
function watched(exporter: SpanExporter, noted: Noted): SpanExporter {
  return {
    export: (spans, done) =>
      exporter.export(spans, (result) => {
        noted(result);
        done(result);
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

function watchedMetrics(exporter: PushMetricExporter, noted: Noted): PushMetricExporter {
  return {
    export: (metrics, done) =>
      exporter.export(metrics, (result) => {
        noted(result);
        done(result);
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
    ...(exporter.selectAggregationTemporality && {
      selectAggregationTemporality: exporter.selectAggregationTemporality.bind(exporter),
    }),
    ...(exporter.selectAggregation && { selectAggregation: exporter.selectAggregation.bind(exporter) }),
  };
}
