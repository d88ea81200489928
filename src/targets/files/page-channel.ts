/**
 * Pages handed from one producer to one consumer (a formatter writing one day's file): `push` resolves once
 * the consumer has taken the page, so a slow file holds back the export instead of queueing rows in memory.
 */
import type { RowPage } from "../../contract";

interface Waiting {
  page: RowPage;
  taken: () => void;
}

export class PageChannel implements AsyncIterable<RowPage> {
  private readonly queue: Waiting[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  push(page: RowPage): Promise<void> {
    return new Promise<void>((taken) => {
      this.queue.push({ page, taken });
      this.notify();
    });
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RowPage> {
    for (;;) {
      const next = this.queue.shift();
      if (next) {
        next.taken();
        yield next.page;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}
