/**
 * The rules of single query parameters that need no schema library: what query-fields.ts refuses through
 * zod, and what the CLI checks of its flags before anything heavy loads (engine/plan/request-words.ts), with the
 * same words.
 */
import { bucketUnitOf } from "../core/calendar";
import { quote } from "../core/quote";

/** Why `text` is not a comma list of distinct `names` (`param: ...`), or undefined when it is. */
export function nameListProblem(param: string, names: readonly string[], text: string): string | undefined {
  const picked: string[] = [];
  for (const item of text.split(",")) {
    if (item === "") return `${param}: empty item in ${quote(text)}`;
    if (!names.includes(item)) return `${param}: unknown name ${quote(item)}; use ${names.join(", ")}`;
    if (picked.includes(item)) return `${param}: ${quote(item)} given twice`;
    picked.push(item);
  }
  return undefined;
}

/** Why `text` is not a granularity word (bucketUnitOf reads them), or undefined when it is one. */
export function granularityProblem(text: string): string | undefined {
  return bucketUnitOf(text) === undefined
    ? `granularity: ${quote(text)} is not one of hour, day, week, month`
    : undefined;
}
