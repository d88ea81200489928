/**
 * Whether OpenTelemetry is asked for, by its standard variables: an OTLP endpoint set (for all signals or
 * for traces or metrics alone) and OTEL_SDK_DISABLED not `true`. Read at every start, so it loads nothing.
 */
export interface OtelChoice {
  readonly traces: boolean;
  readonly metrics: boolean;
  readonly protocol: "http/protobuf" | "http/json";
  /** Set when the variables ask for a protocol adreport does not send (grpc): http/protobuf is used. */
  readonly unsupported: string | undefined;
  /** How long the export at the end may take. */
  readonly timeoutMs: number;
}

/** At most this long, whatever OTEL_EXPORTER_OTLP_TIMEOUT says: a cron run must not wait on a collector. */
export const OTEL_EXPORT_TIMEOUT_MS = 1500;

export function otelWanted(env: Readonly<Record<string, string | undefined>>): OtelChoice | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  const set = (name: string) => (env[name] ?? "").trim() !== "";
  const all = set("OTEL_EXPORTER_OTLP_ENDPOINT");
  const traces = (all || set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")) && env.OTEL_TRACES_EXPORTER?.trim() !== "none";
  const metrics = (all || set("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")) && env.OTEL_METRICS_EXPORTER?.trim() !== "none";
  if (!traces && !metrics) return undefined;
  const asked = (env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "").trim() || "http/protobuf";
  const protocol = asked === "http/json" ? "http/json" : "http/protobuf";
  const timeout = Number(env.OTEL_EXPORTER_OTLP_TIMEOUT);
  return {
    traces,
    metrics,
    protocol,
    unsupported: asked === "http/json" || asked === "http/protobuf" ? undefined : asked,
    timeoutMs:
      Number.isFinite(timeout) && timeout > 0 ? Math.min(timeout, OTEL_EXPORT_TIMEOUT_MS) : OTEL_EXPORT_TIMEOUT_MS,
  };
}
