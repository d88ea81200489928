/** Helpers for stages that rewrite rows: the pages they yield never carry `sent` (the rows are not as sent). */
import type { ReportRow, RowPage } from "../contract";

/** Each page's rows through `rewrite`, a page out for a page in (empty pages dropped). */
export async function* rewritePages(
  pages: AsyncIterable<RowPage>,
  rewrite: (rows: readonly ReportRow[]) => ReportRow[],
): AsyncGenerator<RowPage> {
  for await (const page of pages) {
    const rows = rewrite(page.rows);
    if (rows.length > 0) yield { rows };
  }
}

/** Rows in a page a stage makes itself. */
export const PAGE_ROWS = 1000;

/** Rows held by a stage (sorted, kept by --top), out again a page at a time. */
export function* inPages(rows: readonly ReportRow[]): Generator<RowPage> {
  for (let start = 0; start < rows.length; start += PAGE_ROWS) yield { rows: rows.slice(start, start + PAGE_ROWS) };
}
