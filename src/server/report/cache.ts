/**
 * A least-recently-used map bounded by the total size of its values (rows of a report, characters of a
 * page). The store clears it when the database changes underneath. The newest entry always stays, even
 * over the budget, since the request that made it is still reading it.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, V>();
  private used = 0;

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: V) => number,
    private readonly onEvict: (value: V) => void = () => undefined,
  ) {}

  clear(): void {
    for (const value of this.entries.values()) this.onEvict(value);
    this.entries.clear();
    this.used = 0;
  }

  get(key: string): V | undefined {
    const found = this.entries.get(key);
    if (found !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found;
  }

  set(key: string, value: V): void {
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.used -= this.sizeOf(previous);
      this.onEvict(previous);
    }
    this.entries.set(key, value);
    this.used += this.sizeOf(value);
    for (const [oldKey, oldValue] of this.entries) {
      if (this.used <= this.budget || oldKey === key) break;
      this.entries.delete(oldKey);
      this.used -= this.sizeOf(oldValue);
      this.onEvict(oldValue);
    }
  }
}
