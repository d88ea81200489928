/**
 * lru-cache bounded by bytes. Every entry costs its key, its value and a fixed overhead, so many small or
 * empty entries fill it as surely as a few large ones (counting values only would let a caller grow memory
 * without bound with empty reports or long keys). The store clears it when the database changes underneath.
 */
import { LRUCache } from "lru-cache";

/** What one entry costs besides its key and value: the cache's node, the value's object, the map slot. */
export const ENTRY_OVERHEAD_BYTES = 256;

/** Bytes a Buffer holds: its bytes (its object is within ENTRY_OVERHEAD_BYTES). */
export function bufferBytes(buffer: Buffer): number {
  return buffer.byteLength;
}

/** Bytes a string takes in V8: one a character when every one fits in Latin-1, else two. */
export function stringBytes(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the whole of Latin-1, control characters included
  return /[^\u0000-\u00ff]/.test(text) ? text.length * 2 : text.length;
}

export class ByteBudgetCache<V extends {}> {
  private readonly lru: LRUCache<string, V> | undefined;

  /**
   * @param maxBytes the budget; 0 keeps nothing.
   * @param valueBytes the bytes a value holds, its own overhead included; the key and ENTRY_OVERHEAD_BYTES are added.
   * @param onEvict called for every value that leaves the cache (evicted, replaced, deleted or cleared).
   */
  constructor(
    readonly maxBytes: number,
    private readonly valueBytes: (value: V) => number,
    onEvict: (value: V) => void = () => undefined,
  ) {
    this.lru =
      maxBytes > 0
        ? new LRUCache<string, V>({
            maxSize: maxBytes,
            sizeCalculation: (value, key) => this.costOf(key, value),
            dispose: (value) => onEvict(value),
          })
        : undefined;
  }

  costOf(key: string, value: V): number {
    return Math.max(1, Math.ceil(stringBytes(key) + this.valueBytes(value) + ENTRY_OVERHEAD_BYTES));
  }

  get(key: string): V | undefined {
    return this.lru?.get(key);
  }

  /**
   * Keeps the value, evicting the least recently used entries to make room. Returns false when the value
   * alone is over the budget and was not kept: the caller still owns it and releases it after use.
   */
  set(key: string, value: V): boolean {
    if (!this.lru || this.costOf(key, value) > this.maxBytes) return false;
    this.lru.set(key, value);
    return true;
  }

  /** Evicts the least recently used entry; false when the cache was empty. */
  evictOldest(): boolean {
    return this.lru?.pop() !== undefined;
  }

  clear(): void {
    this.lru?.clear();
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }

  /** The bytes its entries cost now. */
  get usedBytes(): number {
    return this.lru?.calculatedSize ?? 0;
  }
}
