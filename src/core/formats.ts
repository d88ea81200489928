/** The output format names, shared by the formatter registry, the config schema and the flags. */
export const FORMAT_NAMES = ["table", "csv", "tsv", "json", "ndjson", "html", "chart"] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];
