/**
 * Which --output makes a run of whole days: `{date}` in a file name, `sqlite:PATH`, or a `postgres://` URL.
 * Anything else is an ordinary export (run.ts), refused with --incremental: a day exported again would be
 * counted twice by whoever reads a single file or stdout.
 */
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { ResolvedSettings } from "../../config/resolve";
import type { ReportRequest } from "../../contract";
import { databaseIdentity } from "../../core/database-label";
import { OutputError, UsageError } from "../../core/errors";
import type { DayTarget } from "../../targets/day-target";
import type { Context } from "../context";
import type { ReportFlags } from "./command";
import { dayFileTarget, hasDatePlaceholder } from "./day-file-target";
import { chooseOutputFormat } from "./output-format";

export type TargetChoice =
  | { kind: "days"; template: string; what: string; identity: string }
  | { kind: "sqlite"; path: string; table: string; what: string; identity: string }
  | { kind: "postgres"; url: string; table: string; what: string; identity: string };

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

function tableName(flags: ReportFlags): string {
  const dims = (flags.dimensions ?? "")
    .split(",")
    .map((d) => d.trim().toLowerCase())
    .filter((d) => /^[a-z]+$/.test(d));
  const table = flags.table ?? `adreport_${dims.join("_")}`;
  if (!TABLE_NAME.test(table)) {
    throw new UsageError(`--table: ${JSON.stringify(table)} is not a table name (letters, digits and _, at most 63)`);
  }
  return table;
}

export function chooseDayTarget(flags: ReportFlags, cwd: string): TargetChoice | undefined {
  if (flags.incremental !== true) {
    for (const [flag, value] of [
      ["--lookback", flags.lookback],
      ["--start", flags.start],
      ["--state-file", flags.stateFile],
    ] as const) {
      if (value !== undefined) throw new UsageError(`${flag} applies to --incremental runs only`);
    }
  }
  const output = flags.output;
  if (output?.startsWith("sqlite:")) {
    const path = output.slice("sqlite:".length);
    if (path === "") throw new UsageError("--output sqlite:PATH needs the database file's path");
    const table = tableName(flags);
    return {
      kind: "sqlite",
      path,
      table,
      what: "a database target",
      identity: `sqlite:${resolve(cwd, path)}#${table}`,
    };
  }
  if (output !== undefined && /^postgres(ql)?:\/\//i.test(output)) {
    const table = tableName(flags);
    return {
      kind: "postgres",
      url: output,
      table,
      what: "a database target",
      identity: `${databaseIdentity(output)}#${table}`,
    };
  }
  if (flags.table !== undefined) {
    throw new UsageError("--table applies to database targets only (sqlite:PATH, postgres://...)");
  }
  if (output !== undefined && hasDatePlaceholder(output)) {
    if (output.includes("{from}") || output.includes("{to}")) {
      throw new UsageError("--output: {date} names one file per day; it does not go with {from} or {to}");
    }
    return { kind: "days", template: output, what: "{date} in --output", identity: resolve(cwd, output) };
  }
  if (flags.incremental === true) {
    throw new UsageError(
      "--incremental needs an output it can rewrite day by day: -o with {date}, or a database target",
      {
        hint: "for example -o 'exports/{date}.csv' or -o sqlite:ads.db; a single file or stdout would count re-exported days twice",
      },
    );
  }
  return undefined;
}

/** A missing folder (or a file where the folder should be) is found before any request, as for a single file. */
async function checkDayFolder(cwd: string, template: string): Promise<void> {
  const folder = dirname(template);
  if (folder.includes("{date}")) return;
  const found = await stat(resolve(cwd, folder)).catch(() => undefined);
  if (found?.isDirectory()) return;
  throw new OutputError(`cannot write ${template}: ${found ? `${folder} is not a folder` : "no such folder"}`);
}

export type OpenTarget = DayTarget & { close(): Promise<void> };

export async function openDayTarget(
  ctx: Context,
  choice: TargetChoice,
  flags: ReportFlags,
  settings: ResolvedSettings,
  request: ReportRequest,
): Promise<OpenTarget> {
  if (choice.kind === "days") {
    await checkDayFolder(ctx.cwd, choice.template);
    const format = chooseOutputFormat(flags, settings, choice.template, false);
    // A picture chosen by the file's ending (x.html) or the format setting, as -f html is refused (day-run.ts).
    if (format.entry.name === "html" || format.entry.name === "chart") {
      throw new UsageError(
        `--format ${format.entry.name} cannot be used with ${choice.what}: it keeps the service's UTC days and counters`,
        {
          hint: "write CSV, TSV, JSON or NDJSON day files (-o 'exports/{date}.csv')",
        },
      );
    }
    for (const warning of format.warnings) ctx.io.err.write(`adreport: warning: ${warning}\n`);
    const formatter = await format.entry.load();
    const target = dayFileTarget(choice.template, ctx.cwd, formatter, {
      delimiter: settings.delimiter.value,
      bom: flags.bom === true,
      spreadsheet: format.spreadsheet,
      color: false,
    });
    return { ...target, close: async () => undefined };
  }
  const { openTableTarget } = await import("../../targets/table-target");
  const table =
    choice.kind === "sqlite"
      ? { kind: choice.kind, path: choice.path, table: choice.table }
      : {
          kind: choice.kind,
          url: choice.url,
          table: choice.table,
          shown: databaseIdentity(choice.url),
          connectTimeoutMs: settings.timeout.value * 1000,
        };
  return openTableTarget(table, {
    profile: settings.profile.value ?? "",
    request,
    cwd: ctx.cwd,
    now: ctx.now(),
    sqliteAddon: ctx.sqliteAddon(),
  });
}
