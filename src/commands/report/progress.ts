/**
 * What the user sees on stderr while a report downloads: an ora spinner when stderr is a terminal (and
 * not --quiet), or one line per request with --verbose. Nothing at all otherwise. A reason quotes what a
 * service said, so it is shown through `printable`.
 */
import type { ApiEvent, Progress } from "../../api";
import { printable } from "../../core/printable";
import type { IOStreams } from "../../io/iostreams";

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
    const line = (text: string) => io.err.write(`adreport: ${printable(text)}\n`);
    return {
      onEvent(event) {
        if (event.kind === "response")
          line(`${event.method} ${event.url} -> ${event.status} (${Math.round(event.ms)} ms)`);
        else if (event.kind === "failure")
          line(`${event.method} ${event.url} -> failed: ${event.reason} (${Math.round(event.ms)} ms)`);
        else line(`retry ${event.retry}/${event.of} in ${seconds(event.waitMs)}: ${event.reason}`);
      },
      onProgress() {},
      stop() {},
    };
  }
  // A terminal that reports no width would make the spinner redraw without end.
  if (options.quiet || !io.errIsTTY || io.errColumns <= 0) return { onEvent() {}, onProgress() {}, stop() {} };
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
