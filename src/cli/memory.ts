/**
 * Keeps a long export within a small container (a cron job with 128 MiB is common), and `serve` near its
 * --cache-mb. An export allocates a few KB of short-lived objects per row (parsed rows, CSV cells), and
 * `serve` as much per page it renders, so V8 would grow its young generation
 * to its largest (2 x 16 MB) and let the old generation, where what survives two collections goes, grow
 * well past what is alive. Here the young generation stops growing at 2 x 8 MB for an export and 2 x 2 MB
 * for `serve`, and the old generation grows by a quarter of what is alive after each full collection, at a
 * small cost in collection time.
 *
 * An export's not smaller (issue 35): each young collection copies what is still in use, a page or two in
 * flight (over a megabyte), so collections four times as often, at 2 x 2 MB, took a 1M-row CSV export 1.75x
 * the CPU of d4c6712 (no bound), for 84 MB at peak against 93 MB at 2 x 8 MB (bench/README.md, "Figures
 * behind choices"). `serve`'s stays as it was: its memory bound is measured by its own guard figure.
 *
 * `--max-semi-space-size` is read only when V8 starts (and the single binary has no node command line to
 * put it on), but the growth factor is read each time the young generation grows: it becomes 1 once the
 * young generation has reached its size.
 */
import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/**
 * Where the young generation (both of its halves) stops growing, by the kind of command. A run over several
 * accounts keeps 2 x 2 MB: its peak against one account's (the guard's accounts.rss_vs_one, goal 1.2x) read
 * 1.26-1.30x at 2 x 8 MB and 1.17x at 2 x 2 MB, and its time is the service's, not its collections'.
 */
const YOUNG_GENERATION_BYTES = {
  export: 16 * 1024 * 1024,
  accounts: 4 * 1024 * 1024,
  serve: 4 * 1024 * 1024,
} as const;

export type HeapKind = keyof typeof YOUNG_GENERATION_BYTES;

/** The bound a command's action runs under: `report` over one account or several, or `serve`. */
export function heapKindOf(command: readonly string[], flags: Readonly<Record<string, unknown>>): HeapKind {
  if (command[0] === "serve") return "serve";
  return flags.profiles !== undefined || flags.allProfiles === true ? "accounts" : "export";
}
const OLD_GENERATION_GROWTH_PERCENT = 25;

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
}

/**
 * `server`: a process that runs until stopped (`serve`, `serve replay`) also lets its old generation grow by
 * 2 MB at least after a full collection rather than V8's 8 MB, which `--optimize-for-size` alone decides at run
 * time. Under a flood of distinct reports that held `serve` about 8 MB further above what is alive, beyond
 * `--cache-mb` (bench/serve-abuse.ts); its cost in time is within the noise of the same flood.
 */
export function boundHeap(kind: HeapKind, options: { server?: boolean } = {}): void {
  setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
  if (options.server) setFlagsFromString("--optimize-for-size");
  // Each collection is reported after it ran, the growth it decided included.
  const observer = new PerformanceObserver(() => {
    if (youngGenerationBytes() < YOUNG_GENERATION_BYTES[kind]) return;
    setFlagsFromString("--semi-space-growth-factor=1");
    observer.disconnect();
  });
  observer.observe({ entryTypes: ["gc"] });
}
