/**
 * The output formats. Cheap to import (the CLI's help lists the names); each formatter, with its library,
 * loads only when chosen. Adding a format is adding a file and an entry here.
 */
import { extname } from "node:path";
import type { FormatName } from "../core/formats";
import type { Formatter } from "./formatter";

export interface FormatEntry {
  readonly name: FormatName;
  /** File name endings that select this format for --output. */
  readonly extensions: readonly string[];
  /** True when every row is held in memory before anything is written. */
  readonly buffers: boolean;
  load(): Promise<Formatter>;
}

const FORMATS: readonly FormatEntry[] = [
  { name: "table", extensions: [".txt"], buffers: true, load: async () => (await import("./table")).tableFormatter },
  { name: "csv", extensions: [".csv"], buffers: false, load: async () => (await import("./csv")).csvFormatter },
  { name: "tsv", extensions: [".tsv"], buffers: false, load: async () => (await import("./tsv")).tsvFormatter },
  { name: "json", extensions: [".json"], buffers: false, load: async () => (await import("./json")).jsonFormatter },
  {
    name: "ndjson",
    extensions: [".ndjson", ".jsonl"],
    buffers: false,
    load: async () => (await import("./ndjson")).ndjsonFormatter,
  },
  {
    name: "html",
    extensions: [".html", ".htm"],
    buffers: true,
    load: async () => (await import("./html")).htmlFormatter,
  },
  { name: "chart", extensions: [], buffers: true, load: async () => (await import("./chart")).chartFormatter },
];

export function formatNamed(name: string): FormatEntry | undefined {
  return FORMATS.find((f) => f.name === name);
}

/** Every ending --output knows, in the registry's order: ".txt, .csv, ...". */
export function knownEndings(): string[] {
  return FORMATS.flatMap((f) => f.extensions);
}

/** The format a file name asks for by its ending, if any. */
export function formatForFile(path: string): FormatEntry | undefined {
  const ending = extname(path).toLowerCase();
  return FORMATS.find((f) => f.extensions.includes(ending));
}
