/** A TCP client that writes raw bytes to a server and reports everything that came back, and how it ended. */
import { connect, type Socket } from "node:net";

export interface RawExchange {
  socket: Socket;
  /** Resolves when the server has closed or reset the connection. */
  ended: Promise<{ data: string; error: string | undefined }>;
}

/** Connects to `url`'s port on 127.0.0.1 and writes `text` once connected. */
export function rawRequest(url: string, text: string): RawExchange {
  const socket = connect(Number(new URL(url).port), "127.0.0.1", () => {
    if (text !== "") socket.write(text);
  });
  let data = "";
  let error: string | undefined;
  socket.setEncoding("utf8").on("data", (chunk: string) => {
    data += chunk;
  });
  socket.on("error", (e: NodeJS.ErrnoException) => {
    error = e.code ?? e.message;
  });
  const ended = new Promise<{ data: string; error: string | undefined }>((resolve) =>
    socket.on("close", () => resolve({ data, error })),
  );
  return { socket, ended };
}

/** Resolves once the socket is connected. */
export function connected(exchange: RawExchange): Promise<void> {
  if (!exchange.socket.connecting) return Promise.resolve();
  return new Promise((resolve) => exchange.socket.once("connect", () => resolve()));
}
