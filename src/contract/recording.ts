/**
 * The files of a recording (`adreport report --record DIR`, replayed by `adreport serve replay DIR`): one
 * JSON file per exchange, `0001.json`, ..., and `index.json` listing them in the order their answers came.
 * A body is kept as text when it is valid UTF-8 (readable, editable as a test fixture, and written back to
 * the same bytes), otherwise in base64. Headers are pairs, in the order received, a repeated one repeated.
 */
import * as z from "zod";

export const RECORDING_VERSION = 1;
export const RECORDING_INDEX = "index.json";
/**
 * The largest file of a recording `serve replay` reads. An exchange holds one answer, and the client takes
 * none over `--max-page-mb` (64 by default); a service's pages are far smaller.
 */
export const RECORDING_FILE_MAX_BYTES = 64 * 1024 * 1024;

export type HeaderPairs = Array<[string, string]>;

export interface RecordedRequest {
  method: string;
  /** The path without the query (a base URL's prefix included). */
  path: string;
  /** In the order sent. */
  query: Array<[string, string]>;
  /** What was sent, less the Authorization header. */
  headers: HeaderPairs;
}

export interface RecordedResponse {
  status: number;
  headers: HeaderPairs;
  body: Uint8Array;
}

export interface RecordedExchange {
  /** From 1, in the order the requests were sent. */
  number: number;
  request: RecordedRequest;
  /** Absent when no whole answer came (a connection lost, a timeout): then `failure` says what happened. */
  response?: RecordedResponse;
  failure?: string;
}

const pairs = z.array(z.tuple([z.string(), z.string()]));

const exchangeFileSchema = z.object({
  number: z.number().int().positive(),
  request: z.object({ method: z.string().min(1), path: z.string().startsWith("/"), query: pairs, headers: pairs }),
  response: z
    .object({
      status: z.number().int().min(200).max(599),
      headers: pairs,
      body: z.string().optional(),
      body_base64: z.base64().optional(),
    })
    .refine((r) => (r.body === undefined) !== (r.body_base64 === undefined), "exactly one of body and body_base64")
    .optional(),
  failure: z.string().optional(),
});

const indexSchema = z.object({
  version: z.literal(RECORDING_VERSION),
  // Shown, never needed: a recording whose command was edited into something else still replays.
  command: z.array(z.string()).optional().catch(undefined),
  exchanges: z.array(z.object({ file: z.string().regex(/^\d{4,}\.json$/) }).loose()),
});

/** A request target (`/v1/report?from=...`) as a recording keeps it: the path as sent, the query decoded. */
export function splitTarget(target: string): { path: string; query: Array<[string, string]> } {
  const mark = target.indexOf("?");
  const path = mark === -1 ? target : target.slice(0, mark);
  const query = mark === -1 ? [] : [...new URLSearchParams(target.slice(mark + 1))];
  return { path, query };
}

export function exchangeFileName(number: number): string {
  return `${String(number).padStart(4, "0")}.json`;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The body as text when those are exactly its bytes. */
function bodyField(body: Uint8Array): { body: string } | { body_base64: string } {
  try {
    return { body: utf8.decode(body) };
  } catch {
    return { body_base64: Buffer.from(body).toString("base64") };
  }
}

export function exchangeFileText(exchange: RecordedExchange): string {
  const { response } = exchange;
  const file = {
    number: exchange.number,
    request: exchange.request,
    ...(response
      ? { response: { status: response.status, headers: response.headers, ...bodyField(response.body) } }
      : {}),
    ...(exchange.failure === undefined ? {} : { failure: exchange.failure }),
  };
  // Each [name, value] pair on one line: a fixture a person reads and edits. A JSON string holds no raw
  // line break, so the pattern cannot match inside one.
  const text = JSON.stringify(file, null, 2).replace(
    /\[\n\s+("(?:[^"\\]|\\.)*"),\n\s+("(?:[^"\\]|\\.)*")\n\s+\]/g,
    "[$1, $2]",
  );
  return `${text}\n`;
}

/** One line of the index: enough to find an exchange without opening its file. */
export interface IndexEntry {
  file: string;
  method: string;
  path: string;
  query: Record<string, string>;
  status?: number;
  bytes?: number;
  failure?: string;
}

export function indexEntry(exchange: RecordedExchange): IndexEntry {
  const { request, response } = exchange;
  return {
    file: exchangeFileName(exchange.number),
    method: request.method,
    path: request.path,
    query: Object.fromEntries(request.query),
    ...(response ? { status: response.status, bytes: response.body.byteLength } : {}),
    ...(exchange.failure === undefined ? {} : { failure: exchange.failure }),
  };
}

/** `command`: the words of the command line that made the recording (`adreport report ...`), its secrets out. */
export function indexText(entries: readonly IndexEntry[], command?: readonly string[]): string {
  const index = { version: RECORDING_VERSION, ...(command && { command }), exchanges: entries };
  return `${JSON.stringify(index, null, 2)}\n`;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.join(".") || "(top)"}: ${issue?.message ?? "invalid"}`;
}

function parseJson(text: string): Parsed<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: "not JSON" };
  }
}

/** The files the index lists, in its order, and the command that made it (absent in older recordings). */
export function parseIndex(text: string): Parsed<{ files: string[]; command: string[] | undefined }> {
  const json = parseJson(text);
  if (!json.ok) return json;
  const result = indexSchema.safeParse(json.value);
  if (!result.success) return { ok: false, message: firstIssue(result.error) };
  return { ok: true, value: { files: result.data.exchanges.map((e) => e.file), command: result.data.command } };
}

export function parseExchangeFile(text: string): Parsed<RecordedExchange> {
  const json = parseJson(text);
  if (!json.ok) return json;
  const result = exchangeFileSchema.safeParse(json.value);
  if (!result.success) return { ok: false, message: firstIssue(result.error) };
  const { number, request, response, failure } = result.data;
  const exchange: RecordedExchange = { number, request, ...(failure === undefined ? {} : { failure }) };
  if (response) {
    const body =
      response.body === undefined
        ? Buffer.from(response.body_base64 ?? "", "base64")
        : Buffer.from(response.body, "utf8");
    exchange.response = { status: response.status, headers: response.headers, body };
  }
  return { ok: true, value: exchange };
}
