/**
 * `serve replay`: answers the requests of a recording as recorded (status, headers in their order, body
 * bytes), page by page, without a database and without asking for a key. Plain node:http rather than
 * fastify: nothing may add to or reorder what was recorded. Node's own Date header is left out (a
 * recorded one is replayed); Content-Length is the body's length (a body redacted of the key got shorter).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ERROR_STATUS, type RecordedResponse, splitTarget } from "../../contract";
import { printable } from "../../core/printable";
import { type Nearest, ReplayTable } from "./match";
import { readRecording } from "./read-recording";

export interface ReplayOptions {
  dir: string;
  host: string;
  port: number;
  /** One line per request: method, URL, status, and `not recorded` where it was not. */
  log?: ((line: string) => void) | undefined;
}

export interface RunningReplay {
  url: string;
  /** Distinct requests it can answer. */
  requests: number;
  /** Exchanges of the recording without an answer (not replayed). */
  unanswered: number;
  /** The command line that made the recording, when it says. */
  command: string[] | undefined;
  close(): Promise<void>;
}

/** Hop-by-hop headers describe the recorded connection, not the answer; Node writes its own. */
const CONNECTION_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding"]);

function sendRecorded(response: ServerResponse, recorded: RecordedResponse, withBody: boolean): void {
  const flat: string[] = [];
  let hadLength = false;
  for (const [name, value] of recorded.headers) {
    const lower = name.toLowerCase();
    if (CONNECTION_HEADERS.has(lower)) continue;
    if (lower === "content-length") {
      if (hadLength) continue;
      hadLength = true;
      flat.push(name, String(recorded.body.byteLength));
      continue;
    }
    flat.push(name, value);
  }
  if (!hadLength) flat.push("content-length", String(recorded.body.byteLength));
  response.writeHead(recorded.status, flat);
  response.end(withBody ? recorded.body : undefined);
}

function describe(nearest: Nearest | undefined): string {
  if (!nearest) return "the recording has no requests";
  const query = new URLSearchParams(nearest.query).toString();
  const differs = nearest.differs
    .map((d) => `${d.param} (recorded ${d.recorded ?? "none"}, asked ${d.asked ?? "none"})`)
    .join(", ");
  return `the nearest recorded is ${nearest.method} ${nearest.path}${query ? `?${query}` : ""}${differs ? `, which differs in ${differs}` : ""}`;
}

function sendNotRecorded(response: ServerResponse, asked: string, nearest: Nearest | undefined): void {
  // The contract's error shape, with a code of its own: the client tells it from a missing endpoint.
  const message = `not recorded: ${asked}; ${describe(nearest)}`.slice(0, 2000);
  const body = {
    error: { status: ERROR_STATUS.not_found, code: "not_recorded", message },
    ...(nearest ? { nearest } : {}),
  };
  const text = JSON.stringify(body);
  response.writeHead(ERROR_STATUS.not_found, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

export async function startReplay(options: ReplayOptions): Promise<RunningReplay> {
  const recording = readRecording(options.dir);
  const table = new ReplayTable(recording.answered);
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    response.sendDate = false;
    const method = request.method ?? "GET";
    const target = request.url ?? "/";
    const asked = { method, ...splitTarget(target) };
    // HEAD gets what GET was recorded to answer, without the body.
    const recorded = table.answer(asked) ?? (method === "HEAD" ? table.answer({ ...asked, method: "GET" }) : undefined);
    const shown = printable(`${method} ${target}`.slice(0, 500));
    if (recorded) sendRecorded(response, recorded, method !== "HEAD");
    else sendNotRecorded(response, shown, table.nearest(asked));
    options.log?.(`${shown} ${response.statusCode}${recorded ? "" : " not recorded"}`);
    request.resume();
  };
  const server = createServer({ keepAliveTimeout: 5_000 }, handle);
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    requests: table.size,
    unanswered: recording.unanswered,
    command: recording.command,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Every answer is in memory and written at once: nothing in flight is worth waiting for.
        setTimeout(() => {
          for (const socket of sockets) socket.destroy();
        }, 1_000).unref();
      }),
  };
}
