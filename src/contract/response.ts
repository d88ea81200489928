/**
 * The response bodies of `GET /v1/report` (docs/service.md §4, §5). The schemas are loose on purpose:
 * the real service may add fields (docs/service.md §10) and a client keeps the API's row shape as it came.
 */
import * as z from "zod";
import { ERROR_STATUS, type ErrorCode } from "./errors";
import { GRANULARITY_WORDS, TOTAL_GRANULARITY_WORD } from "./fields";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isDimensionMap(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    const v = value[key];
    if (!(v === null || typeof v === "string" || (typeof v === "number" && Number.isFinite(v)))) return false;
  }
  return true;
}

function isMetricMap(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    const v = value[key];
    if (!(typeof v === "number" && Number.isFinite(v))) return false;
  }
  return true;
}

/**
 * A row as a declaration, for documents (openapi.ts): the shape isReportRow checks in one fast pass. A test
 * holds the two to the same answers.
 */
export const reportRowSchema = z
  .looseObject({
    dimensions: z.record(z.string(), z.union([z.string(), z.number(), z.null()])).meta({
      description:
        "The row's values of the requested dimensions: date (bucket start, epoch seconds UTC); campaign_id and name; ad_id, name and campaign_id; keyword_id and name. Empty for the grand-total row.",
    }),
    metrics: z
      .record(z.string(), z.number())
      .meta({ description: "One number per requested metric, in request order." }),
  })
  .meta({ description: "One row of the report; other fields may follow." });

/**
 * One row: `dimensions` (strings and numbers) and `metrics` (numbers); other fields are kept as they came.
 * The service sends numbers only; `null` is a value adreport computes and has none for (a ratio over 0, a
 * compared period without that entity), written as JSON null, an empty CSV cell, `-` in the table.
 */
export interface ReportRow {
  dimensions: Record<string, string | number | null>;
  metrics: Record<string, number | null>;
  [field: string]: unknown;
}

function isReportRow(value: unknown): value is ReportRow {
  return isPlainObject(value) && isDimensionMap(value.dimensions) && isMetricMap(value.metrics);
}

/**
 * Rows are checked in place, in one pass over the array, rather than rebuilt element by element through
 * zod: a client reads hundreds of thousands of them, and copying every row made validation the largest
 * cost, in time and in memory, of an export. A bad row is reported at its index (`data.7`).
 * A plain `check`, not `superRefine`: superRefine adds a closure to every parse's payload, which keeps
 * each page's payload alive through young collections and adds their pauses to a long export.
 */
const reportRowsSchema = z
  .custom<ReportRow[]>((value) => Array.isArray(value), { error: "expected an array of rows" })
  .check((payload) => {
    const bad = payload.value.findIndex((row) => !isReportRow(row));
    if (bad !== -1) {
      payload.issues.push({
        code: "custom",
        message: "expected a row: dimensions (strings and numbers) and metrics (numbers)",
        input: payload.value[bad],
        path: [bad],
      });
    }
  });

/**
 * The answer a page's rows came straight from (not merged from several), for formatters that keep the API's
 * row shape and copy rows from it instead of serialising them again.
 */
export interface SentRows {
  /** The answer's bytes. They belong to the formatter, which may overwrite them. */
  body: Uint8Array;
  /** [start, end) of each row in `body`, or undefined when that cannot be told for sure (see parseReportBody). */
  spans(): readonly number[] | undefined;
}

/** One page of rows on its way to a formatter, with the answer it came from when there was just one. */
export interface RowPage {
  rows: readonly ReportRow[];
  sent?: SentRows;
}

/** The rows of the pages, one at a time. */
export async function* rowsOf(pages: AsyncIterable<RowPage>): AsyncGenerator<ReportRow> {
  for await (const page of pages) yield* page.rows;
}

export const reportMetaSchema = z.looseObject({
  granularity: z.string().meta({
    description: `${Object.values(GRANULARITY_WORDS).join(", ")} with date among the dimensions, otherwise ${TOTAL_GRANULARITY_WORD}.`,
  }),
  dimensions: z.array(z.string()).meta({ description: "The dimensions, the entity first, then date." }),
  metrics: z.array(z.string()).meta({ description: "The metrics, in request order." }),
  total: z.number().int().nonnegative().meta({ description: "Rows of the whole report, over all pages." }),
  page: z.number().int().positive().meta({ description: "This page's number, from 1." }),
  limit: z.number().int().positive().meta({ description: "Rows per page as applied." }),
  has_more: z.boolean().meta({ description: "True when more pages follow this one." }),
});
export type ReportMeta = z.infer<typeof reportMetaSchema>;

export const reportPageSchema = z.looseObject({
  meta: reportMetaSchema,
  data: reportRowsSchema,
});
export type ReportPage = z.infer<typeof reportPageSchema>;

export const errorBodySchema = z.looseObject({
  error: z.looseObject({
    status: z.number().int().meta({ description: "The HTTP status again." }),
    code: z.string().meta({ description: "What went wrong, as a word a program can test." }),
    message: z.string().meta({ description: "What went wrong, for a person; never the key." }),
    param: z.string().optional().meta({ description: "The query parameter at fault, for a 400." }),
  }),
});
type ErrorBody = z.infer<typeof errorBodySchema>;

export function errorBody(code: ErrorCode, message: string, param?: string): ErrorBody {
  return { error: { status: ERROR_STATUS[code], code, message, ...(param === undefined ? {} : { param }) } };
}
