/** The OTLP/HTTP exporters of `http/json`, loaded without those of `http/protobuf`. */
export { OTLPMetricExporter as MetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
export { OTLPTraceExporter as TraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
