/** How a rule of the query refuses a value: a zod issue carrying its error code (docs/service.md §5). */
import * as z from "zod";
import type { RequestErrorCode } from "./errors";

export function refuse(ctx: z.RefinementCtx, code: RequestErrorCode, message: string, path?: string[]): typeof z.NEVER {
  ctx.addIssue({ code: "custom", message, params: { code }, ...(path ? { path } : {}) });
  return z.NEVER;
}
