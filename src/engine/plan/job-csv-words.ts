import { formatNamed } from "../../format/registry";
import type { JobState } from "../../state/store";
import type { ReportWords } from "./words";

/**
 * The job's day files' CSV words, as its runs were given them: a delimiter only for a format that takes one
 * (a TSV, JSON or NDJSON job stores its own, which no run typed and no warning should name).
 */
export function jobCsvWords(write: JobState["write"]): Pick<ReportWords, "delimiter" | "spreadsheet"> {
  const csv = write !== undefined && formatNamed(write.format)?.csvOptions === true;
  return { delimiter: csv ? write.delimiter : undefined, spreadsheet: write?.spreadsheet };
}
