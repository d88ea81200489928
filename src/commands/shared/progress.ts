/**
 * What the user sees on stderr while a report downloads: an ora spinner when stderr is a terminal (and
 * not --quiet), or one line per request with --verbose. Nothing else, but a long wait before a request
 * (wait-line.ts), said in every mode. A reason quotes what a service said, so it is shown through
 * `printable`.
 */
import type { ApiEvent, Progress } from "../../api";
import { type LineTag, tagLine } from "../../core/log-codes";
import { printable } from "../../core/printable";
import type { IOStreams } from "../../io/iostreams";
import { waitLine, waitLines, waitTag } from "./wait-line";

export interface ProgressView {
  onEvent(event: ApiEvent): void;
  onProgress(progress: Progress): void;
  stop(): void;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export async function progressView(
  io: IOStreams,
  options: { quiet: boolean; verbose: boolean },
): Promise<ProgressView> {
  if (options.verbose) {
    const line = (text: string, tag: LineTag) => {
      tagLine(io.err, tag);
      io.err.write(`adreport: ${printable(text)}\n`);
    };
    return {
      onEvent(event) {
        const request =
          event.kind === "response" || event.kind === "failure"
            ? { method: event.method, url: event.url, ms: Math.round(event.ms), attempt: event.attempt }
            : undefined;
        if (event.kind === "response")
          line(`${event.method} ${event.url} -> ${event.status} (${Math.round(event.ms)} ms)`, {
            code: "request",
            fields: { ...request, status: event.status },
          });
        else if (event.kind === "failure")
          line(`${event.method} ${event.url} -> failed: ${event.reason} (${Math.round(event.ms)} ms)`, {
            code: "request.failed",
            fields: { ...request, reason: event.reason },
          });
        else if (event.kind === "retry")
          line(`retry ${event.retry}/${event.of} in ${seconds(event.waitMs)}: ${event.reason}`, {
            code: "retry",
            fields: { retry: event.retry, of: event.of, wait_ms: Math.round(event.waitMs), reason: event.reason },
          });
        // A retry's wait has its line above; every other wait is said, each time.
        else if (event.kind === "wait" && event.source !== "retry") {
          tagLine(io.err, waitTag(event));
          io.err.write(waitLine(event));
        }
      },
      onProgress() {},
      stop() {},
    };
  }
  const waits = waitLines();
  // A terminal that reports no width would make the spinner redraw without end.
  if (options.quiet || !io.errIsTTY || io.errColumns <= 0) {
    return {
      onEvent(event) {
        const text = event.kind === "wait" ? waits(event) : undefined;
        if (text !== undefined && event.kind === "wait") tagLine(io.err, waitTag(event));
        if (text !== undefined) io.err.write(text);
      },
      onProgress() {},
      stop() {},
    };
  }
  const { default: ora } = await import("ora");
  const spinner = ora({
    stream: io.err,
    text: "fetching page 1",
    discardStdin: false,
    color: io.color ? "cyan" : false,
  }).start();
  let pageText = "fetching page 1";
  return {
    onEvent(event) {
      if (event.kind === "retry")
        spinner.text = `${pageText}: retry ${event.retry}/${event.of} in ${seconds(event.waitMs)} (${printable(event.reason)})`;
      const text = event.kind === "wait" ? waits(event) : undefined;
      if (text !== undefined) {
        // The line above the spinner, which goes on below it.
        spinner.clear();
        io.err.write(text);
        spinner.render();
      }
    },
    onProgress(p) {
      pageText = `page ${p.page}/${p.pages}: ${p.rows.toLocaleString("en-US")} of ${p.total.toLocaleString("en-US")} rows`;
      spinner.text = pageText;
    },
    stop() {
      spinner.stop();
    },
  };
}
