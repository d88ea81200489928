/**
 * The output format of a report and its options, from the flags, the settings and the output file's
 * ending; and what to tell the user when a flag they gave cannot apply to that format.
 */
import type { ResolvedSettings } from "../../config/resolve";
import { UsageError } from "../../core/errors";
import type { DayFileFormat, FormatName } from "../../core/formats";
import {
  dayFileEntries,
  type FormatEntry,
  formatForFile,
  formatNamed,
  isDayFileEntry,
  knownEndings,
} from "../../format/registry";

/** The words of the flags that choose a format. */
export interface FormatWords {
  format?: FormatName | undefined;
  spreadsheet?: boolean | undefined;
  bom?: boolean | undefined;
  delimiter?: string | undefined;
}

export interface OutputFormat {
  entry: FormatEntry;
  /**
   * CSV shaped for spreadsheet programs: --spreadsheet wherever it goes, or the setting when the CSV goes
   * to a file (`-o FILE`, day files).
   */
  spreadsheet: boolean;
  /** Lines for stderr, after `adreport: warning: `. */
  warnings: string[];
}

export function chooseOutputFormat(
  flags: FormatWords,
  settings: Pick<ResolvedSettings, "format" | "spreadsheet">,
  path: string | undefined,
  stdoutIsTTY: boolean,
  /** PATH is a named pipe or a device (`-o /dev/stdout` into a pipe): a pipeline reads it, not a spreadsheet. */
  pathIsStream = false,
): OutputFormat {
  // Guessing would write comma CSV into out.xlsx and exit 0: an unknown ending needs a format named.
  if (path !== undefined && flags.format === undefined && flags.spreadsheet !== true && !formatForFile(path)) {
    throw new UsageError(
      `cannot tell the format of ${path} from its ending; known endings: ${knownEndings().join(", ")}`,
      {
        hint: "choose one with --format (-f), or give the file one of those endings",
      },
    );
  }
  const named =
    flags.format ??
    (path ? formatForFile(path)?.name : undefined) ??
    (flags.spreadsheet === true ? "csv" : undefined) ??
    settings.format.value ??
    (path || !stdoutIsTTY ? "csv" : "table");
  const entry = formatNamed(named);
  if (!entry) throw new UsageError(`unknown format ${JSON.stringify(named)}`);
  // As curl does: bytes that are no text would garble the terminal, and nobody reads them there.
  if (entry.binary === true && path === undefined && stdoutIsTTY) {
    throw new UsageError(`${entry.title} is binary: it is not written to a terminal`, {
      hint: `write it to a file with -o report${entry.extensions[0] ?? ""}, or pipe it into a program that reads it`,
    });
  }
  // Asked for by name, it cannot be honoured by another format; the setting is a default for CSV exports.
  if (flags.spreadsheet === true && entry.csvOptions !== true) {
    throw new UsageError(`--spreadsheet makes CSV; the output here is ${entry.name}`, {
      hint: path
        ? "name the file .csv, or give --format csv"
        : "drop --format, or give --format csv (TSV readers want plain --format tsv)",
    });
  }
  const warnings: string[] = [];
  if (entry.csvOptions !== true) {
    if (flags.bom === true) warnings.push(`--bom applies to CSV only; the ${entry.name} output has no byte-order mark`);
    if (flags.delimiter !== undefined) {
      warnings.push(
        entry.fieldsSplitBy !== undefined
          ? `--delimiter applies to CSV only; ${entry.title} fields are always split by ${entry.fieldsSplitBy}`
          : `--delimiter applies to CSV only; it does nothing to the ${entry.name} output`,
      );
    }
  }
  // The setting is for the files a spreadsheet opens: CSV read by a pipeline (stdout, a named pipe, a
  // device) stays plain unless --spreadsheet itself is given (issue 35).
  const spreadsheet =
    entry.csvOptions === true &&
    settings.spreadsheet.value &&
    (flags.spreadsheet === true || (path !== undefined && !pathIsStream));
  return { entry, spreadsheet, warnings };
}

/** A picture (html, chart), by the format's name: never whole days, as day files or a table's rows. */
export function isPicture(format: string | undefined): boolean {
  return format !== undefined && formatNamed(format)?.picture === true;
}

/** `CSV, TSV, JSON or NDJSON`: the formats of day files that `verify` reads back. */
export function dayFileFormatsInWords(): string {
  const names = dayFileEntries().map((entry) => entry.title);
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/** The format a job's state keeps for its day files, when `verify` reads them back (not `-f table`'s). */
export function readBackFormat(entry: FormatEntry): DayFileFormat | undefined {
  return isDayFileEntry(entry) ? entry.name : undefined;
}
