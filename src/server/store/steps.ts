/**
 * Rules written once for both backends: SQLite answers at once (and must, inside its transactions),
 * PostgreSQL with promises. A rule is a generator that yields each database call (`yield* step(call)`);
 * runSync drives it on SQLite, runAsync on PostgreSQL.
 */

/** SQLite answers at once, PostgreSQL over the network: callers await either. */
export type Awaitable<T> = T | Promise<T>;

/** A rule's run: the database calls it yields, then its result. */
export type Steps<T> = Generator<unknown, T, never>;

/** One database call of a rule, whose answer the runner hands back. */
export function* step<T>(call: Awaitable<T>): Generator<Awaitable<T>, T, T> {
  return yield call;
}

/** Runs a rule whose calls all answer at once (SQLite), inside the caller's transaction if any. */
export function runSync<T>(steps: Steps<T>): T {
  let next = steps.next();
  while (!next.done) {
    if (next.value instanceof Promise) throw new Error("a synchronous backend answered with a promise");
    // The runner hands each call its own answer: the one place the generator's types cannot follow.
    next = steps.next(next.value as never);
  }
  return next.value;
}

/** Runs a rule whose calls may answer later (PostgreSQL); a call's failure is thrown into the rule. */
export async function runAsync<T>(steps: Steps<T>): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = await next.value;
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(answer as never);
  }
  return next.value;
}

/** Either runner's answer, for code that takes both. */
export function run<T>(steps: Steps<T>, sync: boolean): Awaitable<T> {
  return sync ? runSync(steps) : runAsync(steps);
}
