/**
 * Computed reports, kept so the pages of one report cost one aggregation. Bounded by a row budget
 * (least recently used first out) and dropped whole when the database changes underneath.
 */
export class ReportCache {
  private readonly entries = new Map<string, string[]>();
  private rows = 0;
  private version: number | undefined;

  constructor(private readonly maxRows: number) {}

  /** Forgets everything when the data version moved since the last call. */
  sync(dataVersion: number): void {
    if (this.version !== dataVersion) {
      this.entries.clear();
      this.rows = 0;
      this.version = dataVersion;
    }
  }

  get(key: string): string[] | undefined {
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found;
  }

  set(key: string, rows: string[]): void {
    if (rows.length > this.maxRows) return;
    this.entries.set(key, rows);
    this.rows += rows.length;
    for (const [oldKey, oldRows] of this.entries) {
      if (this.rows <= this.maxRows) break;
      this.entries.delete(oldKey);
      this.rows -= oldRows.length;
    }
  }
}
