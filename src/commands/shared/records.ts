/**
 * One convention for every command that prints records (keys list, keys test, keys request, config list,
 * state list, serve key list): `--format json` is one JSON document (an array for a list), `--format ndjson`
 * one record a line, field names in snake_case as the API writes them; the default is for people. The old
 * `--json` is a hidden alias of `--format ndjson`, which is what it printed, with a note on stderr.
 */
import { Option } from "@commander-js/extra-typings";
import { UsageError } from "../../core/errors";
import type { Context } from "../context";

/** `--format` of a command whose own output for people is `human` (a table, or lines of text). */
export function recordFormatOption<Human extends string>(human: Human) {
  return new Option(
    "--format <format>",
    `${human} (the default), json (one document; an array for a list) or ndjson (one record a line)`,
  ).choices([human, "json", "ndjson"] as const);
}

/** The deprecated `--json`, left working for scripts; not shown in --help or completions. */
export function jsonAliasOption() {
  return new Option("--json", "deprecated: --format ndjson").hideHelp();
}

export type RecordFormat = "human" | "json" | "ndjson";

/** The format asked for; `--json` is `--format ndjson`, said on stderr. */
export function recordFormat(
  ctx: Context,
  options: { format?: string | undefined; json?: true | undefined },
): RecordFormat {
  if (options.json === true) {
    if (options.format !== undefined)
      throw new UsageError("--json is the old name of --format ndjson: give --format alone");
    ctx.io.err.write(
      "adreport: note: --json is deprecated; it is --format ndjson (or --format json for one document)\n",
    );
    return "ndjson";
  }
  return options.format === "json" || options.format === "ndjson" ? options.format : "human";
}

/** Records as asked: one document (`single`: the record itself, else an array), or one record a line. */
export function recordsText(format: "json" | "ndjson", records: readonly object[], single = false): string {
  if (format === "ndjson") return records.map((record) => `${JSON.stringify(record)}\n`).join("");
  return `${JSON.stringify(single ? records[0] : records)}\n`;
}

/** `value` with every object key in snake_case (`lastDay` → `last_day`); keys such as dates stay as they are. */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      snakeCaseKeys(item),
    ]),
  );
}
