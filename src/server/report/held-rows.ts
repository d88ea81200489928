/**
 * Rows `serve` keeps (a report without an entity, the rows a small page read ahead), held outside V8's heap:
 * their JSON joined by commas as UTF-8 in one buffer, and where each row ends. Kept as strings, every
 * megabyte of them made V8's heap grow by a quarter more (it grows by a share of what is alive, and by 8 MB
 * at least), memory `--cache-mb` did not count; a buffer costs its bytes. A page of them is a slice of the
 * buffer, sent as it is: no strings to join and encode again.
 */

/** What the holder costs besides its bytes and their ends: its object, the buffer's and the array's. */
const HOLDER_OVERHEAD_BYTES = 256;

export class HeldRows {
  private constructor(
    private readonly bytes: Buffer,
    /** The byte offset just past each row. */
    private readonly ends: Uint32Array,
  ) {}

  static of(rows: readonly string[]): HeldRows {
    const joined = rows.join(",");
    // Its own memory: a small buffer from Node's shared pool would keep the whole pool alive with it.
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(joined));
    bytes.write(joined);
    const ends = new Uint32Array(rows.length);
    let end = 0;
    rows.forEach((row, i) => {
      end += Buffer.byteLength(row);
      ends[i] = end;
      end += 1;
    });
    return new HeldRows(bytes, ends);
  }

  get length(): number {
    return this.ends.length;
  }

  /** What holding them costs: their bytes, four an end, and the holder. */
  get byteSize(): number {
    return this.bytes.byteLength + this.ends.byteLength + HOLDER_OVERHEAD_BYTES;
  }

  /** Rows [from, to) joined by commas, as UTF-8: a view of the held bytes, not a copy. */
  slice(from: number, to: number): Buffer {
    const first = Math.max(0, from);
    const last = Math.min(to, this.ends.length);
    if (last <= first) return this.bytes.subarray(0, 0);
    const start = first === 0 ? 0 : (this.ends[first - 1] as number) + 1;
    return this.bytes.subarray(start, this.ends[last - 1] as number);
  }
}
