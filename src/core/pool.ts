/** Runs `count` tasks, at most `limit` at once, in order of their index; none starts once `stopped()`. */
export async function runPool(
  count: number,
  limit: number,
  task: (index: number) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count && !stopped()) {
      const index = next;
      next += 1;
      await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}
