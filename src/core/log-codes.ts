/**
 * `--log-format json` (ADREPORT_LOG_FORMAT=json): every line adreport writes on stderr becomes one JSON
 * object a line, `{"time","level","code","message",...fields}`. The codes are declared here once, with their
 * level and what they mean (docs/topics/logging.md lists this table; test/cli/json-logs.test.ts holds the
 * two to each other). A line whose writer said what it is (tagLine) keeps that code and fields; any other is
 * told by its words (`adreport: warning: ...` is a warning).
 */
import { globalFlag } from "./global-flags";

export type LogLevel = "error" | "warn" | "info" | "debug";

export const LOG_CODES = {
  "error.usage": { level: "error", about: "bad usage or input (exit 2)" },
  "error.auth": { level: "error", about: "the key is missing, invalid or expired (exit 3)" },
  "error.forbidden": { level: "error", about: "IP not whitelisted, or not the caller's resource (exit 4)" },
  "error.unavailable": { level: "error", about: "network, server or rate limit after retries; data changed (exit 5)" },
  "error.quota": { level: "error", about: "a rate limit or quota asks to wait past what the run may (exit 5)" },
  "error.output": { level: "error", about: "an output that could not be written (exit 1)" },
  "error.system": { level: "error", about: "the system refused something (errno in `errno`, exit 1)" },
  "error.partial": { level: "error", about: "some accounts of a run over several failed (exit 6)" },
  "error.differences": { level: "error", about: "verify found days that differ (exit 7)" },
  "error.alert": { level: "error", about: "`adreport status`: a job lags past --max-lag, or failed (exit 8)" },
  "error.busy": { level: "error", about: "another run of the job holds its lock (exit 75)" },
  "error.interrupted": { level: "error", about: "stopped by SIGINT or SIGTERM (exit 130)" },
  "error.internal": { level: "error", about: "a bug in adreport (exit 70)" },
  "error.other": { level: "error", about: "any other failure; `exit_code` says which" },
  hint: { level: "info", about: "what to do about the line before it: a command that runs as printed" },
  debug: { level: "debug", about: "where an error happened (ADREPORT_DEBUG)" },
  warning: { level: "warn", about: "something the user may want to act on" },
  note: { level: "info", about: "a fact about the run" },
  "day.changed": { level: "info", about: "a day differs from what the last run wrote (restated): `day`, `what`" },
  wrote: { level: "info", about: "an export into one file is in place: `path`, `rows`" },
  wait: { level: "info", about: "a wait before a request: `wait_ms`, `until`, `source`, `reason`" },
  request: { level: "debug", about: "one answer with --verbose: `method`, `url`, `status`, `ms`" },
  "request.failed": { level: "debug", about: "a request without an answer with --verbose: `reason`" },
  retry: { level: "info", about: "a request tried again: `retry`, `of`, `wait_ms`, `reason`" },
  "account.result": { level: "info", about: "one account of a run over several: `profile`, `outcome`, `rows`, `ms`" },
  "account.failed": { level: "error", about: "why one account of a run over several failed: `profile`" },
  summary: { level: "info", about: "--summary json on stderr: the object is `summary`" },
  serve: { level: "info", about: "what `adreport serve` says: a key issued, a database ready, a request" },
  text: { level: "info", about: "any other line" },
} as const satisfies Record<string, { level: LogLevel; about: string }>;

export type LogCode = keyof typeof LOG_CODES;

/** What the writer of the next line says it is; fields are snake_case and never hold a key. */
export interface LineTag {
  /** None: told by the line's words, as an untagged line (a field is all the writer adds). */
  readonly code?: LogCode | undefined;
  /** The message when the line's words are not it (the summary's JSON). */
  readonly message?: string | undefined;
  readonly fields?: Readonly<Record<string, unknown>> | undefined;
}

/** The key a stream that writes JSON logs answers to (cli/json-log.ts); other streams lack it. */
export const LOG_TAG: unique symbol = Symbol.for("adreport.log-tag");

interface Taggable {
  [LOG_TAG]?: (tag: LineTag) => void;
}

/** Whether `stream` writes JSON logs: a writer that draws (the accounts' table) writes records instead. */
export function writesJsonLogs(stream: object): boolean {
  return LOG_TAG in stream;
}

/** Says what the next write to `stream` is (one record, whatever its lines); nothing for text logs. */
export function tagLine(stream: object, tag: LineTag): void {
  if (LOG_TAG in stream) (stream as Taggable)[LOG_TAG]?.(tag);
}

/** The code of the line saying an error that exits with `exitCode` (a quota's wait has its own). */
export function errorCode(exitCode: number, quota = false): LogCode {
  if (quota) return "error.quota";
  return ERROR_CODES[exitCode] ?? "error.other";
}

// By exit code (core/exit-codes.ts), which every error kind carries.
const ERROR_CODES: Readonly<Record<number, LogCode>> = {
  1: "error.output",
  2: "error.usage",
  3: "error.auth",
  4: "error.forbidden",
  5: "error.unavailable",
  6: "error.partial",
  7: "error.differences",
  8: "error.alert",
  70: "error.internal",
  75: "error.busy",
  130: "error.interrupted",
};

export interface LogRecord {
  time: string;
  level: LogLevel;
  code: LogCode;
  message: string;
  [field: string]: unknown;
}

/** A line written without a tag, told by its words. */
function untagged(line: string): { code: LogCode; message: string } {
  if (line.startsWith("hint: ")) return { code: "hint", message: line.slice(6) };
  if (line.startsWith("adreport: warning: ")) return { code: "warning", message: line.slice(19) };
  if (line.startsWith("adreport: note: ")) return { code: "note", message: line.slice(16) };
  if (line.startsWith("adreport: waiting ")) return { code: "wait", message: line.slice(10) };
  if (line.startsWith("adreport serve: ")) return { code: "serve", message: line.slice(16) };
  if (line.startsWith("adreport: ")) return { code: "note", message: line.slice(10) };
  return { code: "text", message: line };
}

/** `text` (one write, maybe several lines) as the record of `tag`, or of its own words. */
export function logRecord(text: string, tag: LineTag | undefined, time: Date): LogRecord {
  const line = text.replace(/\n+$/, "");
  const told = untagged(line);
  const code = tag?.code ?? told.code;
  // A tagged line keeps its whole text as the message but the prefix its kind already says.
  const message = tag?.code === undefined ? told.message : (tag.message ?? withoutPrefix(line, code));
  const level: LogLevel = LOG_CODES[code].level;
  const record: LogRecord = { time: time.toISOString(), level, code, message };
  // The four keys first and never replaced by a field.
  for (const [name, value] of Object.entries(tag?.fields ?? {})) if (!(name in record)) record[name] = value;
  return record;
}

function withoutPrefix(line: string, code: LogCode): string {
  for (const prefix of ["adreport: warning: ", "adreport serve: ", "adreport: ", "hint: "]) {
    if (line.startsWith(prefix) && (code === "warning" || !prefix.includes("warning"))) {
      return line.slice(prefix.length);
    }
  }
  return line;
}

/**
 * The JSON lines of one write to stderr: one record when its writer tagged it (a stack trace too), else
 * one a line, each told by its words.
 */
export function jsonLogLines(text: string, tag: LineTag | undefined, time: Date): string {
  const records =
    tag === undefined
      ? text
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => logRecord(line, undefined, time))
      : [logRecord(text, tag, time)];
  return records.map((record) => `${JSON.stringify(record)}\n`).join("");
}

/** Whether `--log-format json` or ADREPORT_LOG_FORMAT=json asks for JSON logs (the flag wins). */
export function jsonLogsWanted(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): boolean {
  return (globalFlag(argv, "--log-format") ?? env.ADREPORT_LOG_FORMAT) === "json";
}
