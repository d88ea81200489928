/**
 * Requests at once shared by several paginations: --compare's two periods (and a range's 90-day windows)
 * keep together to the one --concurrency the user gave. A slot is held while a page is being opened
 * (retries included) and handed straight to the next waiting request when it ends.
 */
export class RequestSlots {
  private used = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.used < Math.max(1, this.size)) this.used += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.used -= 1;
    }
  }
}
