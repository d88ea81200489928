/**
 * The response bodies of `GET /v1/report` (spec §2, contract.md A3/A4). The schemas are loose on purpose:
 * the real service may add fields (contract.md C) and a client keeps the API's row shape as it came.
 */
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "./errors";

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

/** One row: `dimensions` (strings and numbers) and `metrics` (numbers); other fields are kept as they came. */
export interface ReportRow {
  dimensions: Record<string, string | number | null>;
  metrics: Record<string, number>;
  [field: string]: unknown;
}

/**
 * A row is checked in place rather than rebuilt: a client reads hundreds of thousands of them, and copying
 * every row and both its maps made validation the largest cost, in time and in memory, of an export.
 */
function isReportRow(value: unknown): value is ReportRow {
  return isPlainObject(value) && isDimensionMap(value.dimensions) && isMetricMap(value.metrics);
}

export const reportRowSchema = z.custom<ReportRow>(isReportRow, {
  error: "expected a row: dimensions (strings and numbers) and metrics (numbers)",
});

export const reportMetaSchema = z.looseObject({
  granularity: z.string(),
  dimensions: z.array(z.string()),
  metrics: z.array(z.string()),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  limit: z.number().int().positive(),
  has_more: z.boolean(),
});
export type ReportMeta = z.infer<typeof reportMetaSchema>;

export const reportPageSchema = z.looseObject({
  meta: reportMetaSchema,
  data: z.array(reportRowSchema),
});
export type ReportPage = z.infer<typeof reportPageSchema>;

export const errorBodySchema = z.looseObject({
  error: z.looseObject({
    status: z.number().int(),
    code: z.string(),
    message: z.string(),
    param: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export function errorBody(code: ErrorCode, message: string, param?: string): ErrorBody {
  return { error: { status: ERROR_STATUS[code], code, message, ...(param === undefined ? {} : { param }) } };
}
