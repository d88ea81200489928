/**
 * Whole-number parameters (`page`, `limit`, `campaign_id`, `ad_id`). JSON carries a whole number exactly
 * only up to 2^53 − 1 (meta.page is one): a larger page or id would be answered as another one, so it is
 * refused; only `limit` has a rule for too large (applied as the cap).
 */
import * as z from "zod";
import { quote } from "../core/quote";
import { refuse } from "./refusal";

export const MAX_WHOLE = Number.MAX_SAFE_INTEGER;

/** Digits whose value is at least 1. */
const POSITIVE = /^0*[1-9]\d*$/;

/** A pattern for the decimal numbers from 1 to `max` (leading zeros allowed), for the OpenAPI document. */
function upTo(max: string): string {
  const shorter = `[1-9]\\d{0,${max.length - 2}}`;
  const sameLength: string[] = [];
  for (let at = 0; at < max.length; at += 1) {
    const digit = Number(max[at]);
    const lowest = at === 0 ? 1 : 0;
    if (digit - 1 < lowest) continue;
    const range = digit - 1 === lowest ? `${lowest}` : `[${lowest}-${digit - 1}]`;
    const rest = max.length - at - 1;
    sameLength.push(`${max.slice(0, at)}${range}${rest > 1 ? `\\d{${rest}}` : rest === 1 ? "\\d" : ""}`);
  }
  return `^0*(${[shorter, ...sameLength, max].join("|")})$`;
}

const WITHIN = new RegExp(upTo(String(MAX_WHOLE)));

/**
 * `above`: what a number over MAX_WHOLE is, `refuse`d (400 invalid_parameter) or `cap`ped, where a rule
 * applies a larger value as a smaller one.
 */
export function positiveInteger(param: string, what: string, description: string, above: "refuse" | "cap") {
  const pattern = above === "refuse" ? WITHIN.source : POSITIVE.source;
  return z
    .string()
    .meta({ description, pattern })
    .transform((text, ctx): number => {
      if (!POSITIVE.test(text)) return refuse(ctx, "invalid_parameter", `${param}: ${quote(text)} is not ${what}`);
      if (above === "cap" || WITHIN.test(text)) return Math.min(Number(text), MAX_WHOLE);
      return refuse(ctx, "invalid_parameter", `${param}: ${quote(text)} is more than ${MAX_WHOLE} (2^53 - 1)`);
    });
}
