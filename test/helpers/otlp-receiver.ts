/**
 * A loopback OTLP/HTTP receiver: what an OpenTelemetry collector takes on /v1/traces and /v1/metrics,
 * decoded from OTLP/JSON or from protobuf (a decoder of the wire format here, with the field numbers of
 * opentelemetry-proto's trace.proto, metrics.proto and common.proto: the otlp-transformer package ships
 * encoders only). `blackHole` accepts each connection and never answers. Closes after the test file.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEachFile } from "./after-file";

export type AttributeValue = string | number | boolean;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, AttributeValue>;
  events: { name: string; attributes: Record<string, AttributeValue> }[];
  status: { code: number; message: string };
}

export interface ReceivedPoint {
  metric: string;
  unit: string;
  value: number;
  attributes: Record<string, AttributeValue>;
}

export interface Received {
  /** Content type and path of each request, in order. */
  requests: { path: string; contentType: string; headers: IncomingMessage["headers"] }[];
  /** Every body as received, for a search for what must never be sent (a key). */
  raw: Buffer[];
  resources: Record<string, AttributeValue>[];
  spans: ReceivedSpan[];
  points: ReceivedPoint[];
}

export interface OtlpReceiver {
  url: string;
  received: Received;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

const open = new Set<OtlpReceiver>();
afterEachFile(async () => {
  await Promise.all([...open].map((receiver) => receiver.close()));
});

export async function startOtlpReceiver(options: { blackHole?: boolean } = {}): Promise<OtlpReceiver> {
  const received: Received = { requests: [], raw: [], resources: [], spans: [], points: [] };
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((req, res) => {
    if (options.blackHole) return;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const contentType = String(req.headers["content-type"] ?? "");
      received.requests.push({ path: req.url ?? "", contentType, headers: req.headers });
      received.raw.push(body);
      const json = contentType.includes("json");
      try {
        if (req.url === "/v1/traces") decodeTraces(json ? JSON.parse(body.toString()) : traceRequest(body), received);
        else if (req.url === "/v1/metrics")
          decodeMetrics(json ? JSON.parse(body.toString()) : metricsRequest(body), received);
      } catch (error) {
        res.writeHead(400).end(String(error));
        return;
      }
      res.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" });
      res.end(json ? "{}" : "");
    });
  });
  server.on("connection", (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: OtlpReceiver = {
    url: `http://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    close: () => {
      open.delete(receiver);
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  open.add(receiver);
  return receiver;
}

// OTLP/JSON and the decoded protobuf share one shape here: camelCase fields, ids as hex, times as strings.
type Json = Record<string, unknown>;

function decodeTraces(request: Json, into: Received): void {
  for (const resourceSpans of (request.resourceSpans ?? []) as Json[]) {
    into.resources.push(attributesOf((resourceSpans.resource as Json | undefined)?.attributes));
    for (const scopeSpans of (resourceSpans.scopeSpans ?? []) as Json[]) {
      for (const span of (scopeSpans.spans ?? []) as Json[]) {
        const status = (span.status ?? {}) as Json;
        into.spans.push({
          traceId: String(span.traceId ?? ""),
          spanId: String(span.spanId ?? ""),
          parentSpanId: String(span.parentSpanId ?? ""),
          name: String(span.name ?? ""),
          kind: Number(span.kind ?? 0),
          startNs: BigInt(String(span.startTimeUnixNano ?? 0)),
          endNs: BigInt(String(span.endTimeUnixNano ?? 0)),
          attributes: attributesOf(span.attributes),
          events: ((span.events ?? []) as Json[]).map((event) => ({
            name: String(event.name ?? ""),
            attributes: attributesOf(event.attributes),
          })),
          status: { code: Number(status.code ?? 0), message: String(status.message ?? "") },
        });
      }
    }
  }
}

function decodeMetrics(request: Json, into: Received): void {
  for (const resourceMetrics of (request.resourceMetrics ?? []) as Json[]) {
    into.resources.push(attributesOf((resourceMetrics.resource as Json | undefined)?.attributes));
    for (const scopeMetrics of (resourceMetrics.scopeMetrics ?? []) as Json[]) {
      for (const metric of (scopeMetrics.metrics ?? []) as Json[]) {
        const data = (metric.sum ?? metric.gauge) as Json | undefined;
        for (const point of (data?.dataPoints ?? []) as Json[]) {
          into.points.push({
            metric: String(metric.name),
            unit: String(metric.unit ?? ""),
            value: Number(point.asDouble ?? point.asInt ?? 0),
            attributes: attributesOf(point.attributes),
          });
        }
      }
    }
  }
}

function attributesOf(list: unknown): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = {};
  for (const { key, value } of (list ?? []) as { key: string; value: Json }[]) {
    if (value.stringValue !== undefined) attributes[key] = String(value.stringValue);
    else if (value.boolValue !== undefined) attributes[key] = Boolean(value.boolValue);
    else if (value.intValue !== undefined) attributes[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) attributes[key] = Number(value.doubleValue);
  }
  return attributes;
}

// --- protobuf: the wire format, and the fields of the messages above by number ---

type Field =
  | { kind: "varint"; value: bigint }
  | { kind: "fixed64"; bytes: Buffer }
  | { kind: "bytes"; bytes: Buffer }
  | { kind: "fixed32"; bytes: Buffer };

function fields(buffer: Buffer): Map<number, Field[]> {
  const out = new Map<number, Field[]>();
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buffer[at++];
      if (byte === undefined) throw new Error("protobuf: truncated varint");
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (at < buffer.length) {
    const key = varint();
    const number = Number(key >> 3n);
    const wire = Number(key & 7n);
    let field: Field;
    if (wire === 0) field = { kind: "varint", value: varint() };
    else if (wire === 1) {
      field = { kind: "fixed64", bytes: buffer.subarray(at, at + 8) };
      at += 8;
    } else if (wire === 2) {
      const length = Number(varint());
      field = { kind: "bytes", bytes: buffer.subarray(at, at + length) };
      at += length;
    } else if (wire === 5) {
      field = { kind: "fixed32", bytes: buffer.subarray(at, at + 4) };
      at += 4;
    } else throw new Error(`protobuf: wire type ${wire}`);
    out.set(number, [...(out.get(number) ?? []), field]);
  }
  return out;
}

const bytesOf = (f: Field | undefined) => (f && f.kind === "bytes" ? f.bytes : Buffer.alloc(0));
const all = (m: Map<number, Field[]>, n: number) => (m.get(n) ?? []).map(bytesOf);
const one = (m: Map<number, Field[]>, n: number) => bytesOf(m.get(n)?.[0]);
const text = (m: Map<number, Field[]>, n: number) => one(m, n).toString("utf8");
const hex = (m: Map<number, Field[]>, n: number) => one(m, n).toString("hex");
const fixed64 = (m: Map<number, Field[]>, n: number) => {
  const f = m.get(n)?.[0];
  return f?.kind === "fixed64" ? f.bytes.readBigUInt64LE(0).toString() : "0";
};
const varintOf = (m: Map<number, Field[]>, n: number) => {
  const f = m.get(n)?.[0];
  return f?.kind === "varint" ? f.value : 0n;
};

function readDouble(field: Field | undefined): number {
  return field?.kind === "fixed64" ? field.bytes.readDoubleLE(0) : Number.NaN;
}

function keyValues(m: Map<number, Field[]>, n: number): Json[] {
  return all(m, n).map((kv) => {
    const f = fields(kv);
    const v = fields(one(f, 2));
    const value: Json = {};
    if (v.has(1)) value.stringValue = text(v, 1);
    else if (v.has(2)) value.boolValue = varintOf(v, 2) !== 0n;
    else if (v.has(3)) value.intValue = BigInt.asIntN(64, varintOf(v, 3)).toString();
    else if (v.get(4)?.[0]?.kind === "fixed64") value.doubleValue = readDouble(v.get(4)?.[0]);
    return { key: text(f, 1), value };
  });
}

function traceRequest(body: Buffer): Json {
  const request = fields(body);
  return {
    resourceSpans: all(request, 1).map((rs) => {
      const r = fields(rs);
      return {
        resource: { attributes: keyValues(fields(one(r, 1)), 1) },
        scopeSpans: all(r, 2).map((ss) => ({
          spans: all(fields(ss), 2).map((s) => {
            const span = fields(s);
            const status = fields(one(span, 15));
            return {
              traceId: hex(span, 1),
              spanId: hex(span, 2),
              parentSpanId: hex(span, 4),
              name: text(span, 5),
              kind: Number(varintOf(span, 6)),
              startTimeUnixNano: fixed64(span, 7),
              endTimeUnixNano: fixed64(span, 8),
              attributes: keyValues(span, 9),
              events: all(span, 11).map((e) => {
                const event = fields(e);
                return { name: text(event, 2), attributes: keyValues(event, 3) };
              }),
              status: { message: text(status, 2), code: Number(varintOf(status, 3)) },
            };
          }),
        })),
      };
    }),
  };
}

function metricsRequest(body: Buffer): Json {
  const request = fields(body);
  return {
    resourceMetrics: all(request, 1).map((rm) => {
      const r = fields(rm);
      return {
        resource: { attributes: keyValues(fields(one(r, 1)), 1) },
        scopeMetrics: all(r, 2).map((sm) => ({
          metrics: all(fields(sm), 2).map((mb) => {
            const metric = fields(mb);
            // 5: gauge, 7: sum; each holds its data points in field 1.
            const data = fields(metric.has(7) ? one(metric, 7) : one(metric, 5));
            return {
              name: text(metric, 1),
              unit: text(metric, 3),
              sum: {
                dataPoints: all(data, 1).map((pb) => {
                  const point = fields(pb);
                  const double = point.get(4)?.[0];
                  const int = point.get(6)?.[0];
                  return {
                    attributes: keyValues(point, 7),
                    ...(double?.kind === "fixed64" && { asDouble: double.bytes.readDoubleLE(0) }),
                    ...(int?.kind === "fixed64" && { asInt: Number(int.bytes.readBigInt64LE(0)) }),
                  };
                }),
              },
            };
          }),
        })),
      };
    }),
  };
}
