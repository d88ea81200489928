/**
 * The N best items of a stream in O(N) memory: a binary heap whose root is the worst item kept, replaced
 * when a better one comes. `before(a, b)` is true when a ranks before b; it must be a strict total order.
 */
export class BoundedHeap<T> {
  private readonly items: T[] = [];

  constructor(
    readonly capacity: number,
    private readonly before: (a: T, b: T) => boolean,
  ) {}

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    const { items } = this;
    if (items.length < this.capacity) {
      items.push(item);
      this.up(items.length - 1);
    } else if (items.length > 0 && this.before(item, items[0] as T)) {
      items[0] = item;
      this.down(0);
    }
  }

  /** The items kept, best first; the heap is empty afterwards. */
  drain(): T[] {
    const sorted = this.items.splice(0).sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
    return sorted;
  }

  /** The heap keeps the worst item at the root: a parent ranks after its children. */
  private worse(i: number, j: number): boolean {
    return this.before(this.items[j] as T, this.items[i] as T);
  }

  private swap(i: number, j: number): void {
    const { items } = this;
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worse(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < n && this.worse(left, worst)) worst = left;
      if (right < n && this.worse(right, worst)) worst = right;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }
}
