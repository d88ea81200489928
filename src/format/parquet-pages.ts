/**
 * A column chunk's page headers walked before hyparquet reads it: each must be one of Parquet's page types,
 * with sizes that are whole numbers, and the pages must fill the chunk exactly. hyparquet reads pages until
 * it has the row group's rows; a header damaged so that the pages no longer line up made it loop for ever
 * (a day file with one byte changed hung `verify`).
 */
import type { ColumnChunk, DataReader } from "hyparquet";
import { parquetHeader } from "hyparquet/src/column.js";
import { UnreadableFile } from "./day-file";

const PAGE_TYPES = new Set(["DATA_PAGE", "DICTIONARY_PAGE", "DATA_PAGE_V2", "INDEX_PAGE"]);

const size = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/** Throws UnreadableFile naming the column and row group (1-based) whose pages do not fill its chunk. */
export function checkPages(file: ArrayBuffer, chunk: ColumnChunk, column: string, group: number): void {
  const damaged = () =>
    new UnreadableFile(`its column ${JSON.stringify(column)} in row group ${group} has a damaged page header`);
  const meta = chunk.meta_data;
  if (meta === undefined) throw damaged();
  const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
  const length = Number(meta.total_compressed_size);
  if (!size(start) || !size(length) || start + length > file.byteLength) throw damaged();
  const reader: DataReader = { view: new DataView(file, start, length), offset: 0 };
  while (reader.offset < length) {
    let header: ReturnType<typeof parquetHeader>;
    try {
      header = parquetHeader(reader);
    } catch {
      throw damaged();
    }
    if (!PAGE_TYPES.has(header.type) || !size(header.compressed_page_size) || !size(header.uncompressed_page_size)) {
      throw damaged();
    }
    reader.offset += header.compressed_page_size;
  }
  if (reader.offset !== length) throw damaged();
}
