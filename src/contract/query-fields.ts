/**
 * The parameters of `GET /v1/report` (docs/service.md §2) one at a time: lists of names, the instants
 * `from` / `to`, the granularity word. query-schema.ts puts them together with the rules between them.
 */
import * as z from "zod";
import { BARE_DATE, bucketUnitOf } from "../core/calendar";
import { quote } from "../core/quote";
import { granularityProblem, nameListProblem } from "./field-rules";
import { DEFAULT_GRANULARITY, GRANULARITIES, GRANULARITY_WORDS, type Granularity } from "./fields";
import { refuse } from "./refusal";
import { DATE_TIME, type Instant, parseInstant } from "./time";

/** A regular expression matching any of `words`, whole. */
function oneOf(words: readonly string[]): string {
  return `(${words.join("|")})`;
}

export function nameList<T extends string>(param: string, names: readonly T[], description: string) {
  const name = oneOf(names);
  return z
    .string()
    .meta({ description: `${description} No name twice.`, pattern: `^${name}(,${name})*$` })
    .transform((text, ctx): T[] => {
      const problem = nameListProblem(param, names, text);
      return problem === undefined ? (text.split(",") as T[]) : refuse(ctx, "invalid_parameter", problem);
    });
}

export function instant(role: "from" | "to", description: string) {
  return z
    .string()
    .meta({
      description: `${description} An ISO 8601 date-time with Z or an offset (2026-11-01T09:00:00+09:00), or a date alone (2026-11-01: ${role === "from" ? "the start of that UTC day" : "its last second, 23:59:59Z"}).`,
      pattern: `${BARE_DATE.source}|${DATE_TIME.source}`,
    })
    .transform((text, ctx): Instant => {
      const parsed = parseInstant(text, role);
      if (parsed) return parsed;
      return refuse(
        ctx,
        "invalid_parameter",
        `${role}: ${quote(text)} is not an ISO 8601 date-time with Z or an offset (2026-11-01T00:00:00Z) or a date (2026-11-01)`,
      );
    });
}

/** Every word the parameter takes, in lower case (bucketUnitOf reads them in any case). */
const GRANULARITY_ALIASES = GRANULARITIES.flatMap((g) => [g, GRANULARITY_WORDS[g]]);

/** `hour` as `[hH][oO][uU][rR]`: JSON Schema patterns have no flag for case. */
const anyCase = (word: string) => [...word].map((c) => `[${c.toLowerCase()}${c.toUpperCase()}]`).join("");

export const granularity = z
  .string()
  .meta({
    description: `The size of the date buckets, in any case; default ${DEFAULT_GRANULARITY}. Without date in dimensions it has no effect, but an unknown word is still refused.`,
    pattern: `^${oneOf(GRANULARITY_ALIASES.map(anyCase))}$`,
  })
  .transform((text, ctx): Granularity => {
    const problem = granularityProblem(text);
    return problem === undefined ? (bucketUnitOf(text) as Granularity) : refuse(ctx, "invalid_parameter", problem);
  });
