/** The OTLP/HTTP exporters of `http/protobuf` (the default), loaded without those of `http/json`. */
export { OTLPMetricExporter as MetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
export { OTLPTraceExporter as TraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
