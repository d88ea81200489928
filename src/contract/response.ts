/**
 * The response bodies of `GET /v1/report` (spec §2, contract.md A3/A4). The schemas are loose on purpose:
 * the real service may add fields (contract.md C) and a client keeps the API's row shape as it came.
 */
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "./errors";

export const dimensionValueSchema = z.union([z.string(), z.number(), z.null()]);

export const reportRowSchema = z.looseObject({
  dimensions: z.record(z.string(), dimensionValueSchema),
  metrics: z.record(z.string(), z.number()),
});
export type ReportRow = z.infer<typeof reportRowSchema>;

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
