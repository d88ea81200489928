/** The output format names, shared by the formatter registry, the config schema and the flags. */
export const FORMAT_NAMES = ["table", "csv", "tsv", "json", "ndjson", "parquet", "html", "chart"] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/**
 * The formats whose `{date}` files `verify` reads back, as a job's state names them (state/store.ts); the
 * registry (format/registry.ts) must give each a reader, and no other format one.
 */
export const DAY_FILE_FORMATS = ["csv", "tsv", "json", "ndjson", "parquet"] as const satisfies readonly FormatName[];
export type DayFileFormat = (typeof DAY_FILE_FORMATS)[number];

/** --date-format: how `date` is written (transform/dates.ts). */
export const DATE_FORMATS = ["iso", "epoch"] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
