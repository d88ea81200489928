/**
 * The header lines of an answer as they came (names in their case, a repeated header where it was), for
 * `--record`: undici's `request` gives only an object of lower-cased names with repeats gathered. An
 * interceptor composed onto the dispatcher sees undici's raw list; a dispatcher that has none (a MockAgent)
 * gives its object, taken in its order.
 */
import type { Dispatcher } from "./undici";

export type HeaderLines = Array<[string, string]>;

function fromObject(headers: Record<string, string | string[] | undefined>): HeaderLines {
  const lines: HeaderLines = [];
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) lines.push([name, one]);
  }
  return lines;
}

function fromRaw(raw: ReadonlyArray<Buffer | string>): HeaderLines {
  const lines: HeaderLines = [];
  const text = (part: Buffer | string | undefined) =>
    typeof part === "string" ? part : (part?.toString("latin1") ?? "");
  for (let i = 0; i + 1 < raw.length; i += 2) lines.push([text(raw[i]), text(raw[i + 1])]);
  return lines;
}

/** `dispatcher` with each answer's header lines handed to `onLines` as its status line comes in. */
export function withHeaderLines(dispatcher: Dispatcher, onLines: (lines: HeaderLines) => void): Dispatcher {
  return dispatcher.compose(
    (dispatch) => (options, handler) =>
      dispatch(options, {
        onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
        onRequestUpgrade: (controller, status, headers, socket) =>
          handler.onRequestUpgrade?.(controller, status, headers, socket),
        onResponseStart: (controller, status, headers, message) => {
          const raw = (controller as { rawHeaders?: ReadonlyArray<Buffer | string> | null }).rawHeaders;
          onLines(raw ? fromRaw(raw) : fromObject(headers));
          handler.onResponseStart?.(controller, status, headers, message);
        },
        onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
        onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
        onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
      }),
  );
}
