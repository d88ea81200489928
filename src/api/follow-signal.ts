/**
 * A request's own controller made to abort with the caller's signal, until the request is done. It replaces
 * `AbortSignal.any([outer, own])` per request: on Node 20 each `any` registers a weak reference and a
 * finalizer on the outer signal, about 0.1 ms a page of an export; and a listener per request would pass the
 * outer signal's listener limit at `--concurrency` 11, and Node would print a warning.
 * Here one listener per outer signal aborts the requests still following it.
 */
const followers = new WeakMap<AbortSignal, Set<AbortController>>();

/** Aborts `own` when `outer` aborts, with its reason; the function returned stops that. */
export function followSignal(outer: AbortSignal, own: AbortController): () => void {
  if (outer.aborted) {
    own.abort(outer.reason);
    return () => undefined;
  }
  let following = followers.get(outer);
  if (following === undefined) {
    const controllers = new Set<AbortController>();
    outer.addEventListener(
      "abort",
      () => {
        for (const controller of controllers) controller.abort(outer.reason);
        controllers.clear();
      },
      { once: true },
    );
    followers.set(outer, controllers);
    following = controllers;
  }
  const set = following;
  set.add(own);
  return () => {
    set.delete(own);
  };
}
