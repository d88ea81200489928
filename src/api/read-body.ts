/**
 * A response body read whole into one buffer, but never more than a bound: a page or an error body over it
 * stops the read at once (the connection is dropped), so a hostile or broken answer costs at most the bound
 * in memory instead of its whole size.
 */
import type { Dispatcher } from "./undici";

/** The body went past the bound; `seen` is how many bytes had come (or were announced) by then. */
export class BodyTooLargeError extends Error {
  constructor(
    readonly limit: number,
    readonly seen: number,
  ) {
    super(`the answer is larger than ${limit} bytes`);
  }
}

/**
 * The whole body in a buffer of its own (callers may write into it). Rejects with BodyTooLargeError as soon
 * as the announced length or the bytes received pass `maxBytes`, and with the stream's error otherwise.
 */
export function readBoundedBody(
  body: Dispatcher.ResponseData["body"],
  maxBytes: number,
  contentLength: string | string[] | undefined,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const announced = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength);
    if (announced > maxBytes) {
      body.destroy();
      reject(new BodyTooLargeError(maxBytes, announced));
      return;
    }
    // A page read after its turn came may have failed while it waited (the connection reset): its stream
    // is destroyed already and would never emit again, which would leave this promise, and the export,
    // waiting on nothing.
    if (body.destroyed || body.errored) {
      reject(body.errored ?? new Error("the connection was closed before the whole answer came"));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanUp();
        body.destroy();
        chunks.length = 0;
        reject(new BodyTooLargeError(maxBytes, size));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanUp();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanUp();
      reject(error);
    };
    const onClose = () => {
      cleanUp();
      reject(new Error("the connection was closed before the whole answer came"));
    };
    const cleanUp = () => {
      body.off("data", onData);
      body.off("end", onEnd);
      body.off("error", onError);
      body.off("close", onClose);
      body.on("error", () => undefined); // a late error of a stream given up on must not go unhandled
    };
    body.on("data", onData);
    body.on("end", onEnd);
    body.on("error", onError);
    body.on("close", onClose);
  });
}
