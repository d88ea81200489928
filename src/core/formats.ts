/** The output format names, shared by the formatter registry, the config schema and the flags. */
export const FORMAT_NAMES = ["table", "csv", "tsv", "json", "ndjson", "html", "chart"] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** --date-format: how `date` is written (transform/dates.ts). */
export const DATE_FORMATS = ["iso", "epoch"] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
