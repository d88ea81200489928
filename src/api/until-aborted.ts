/**
 * `work`, or the signal's reason as soon as it aborts. undici applies an abort only once a request has a
 * connection; one still queued while undici reconnects would otherwise outlast every timeout, the caller's
 * deadline and an interrupt. `abandon` is called when `work` is given up on before it settled.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, abandon: () => void): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    abandon();
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      abandon();
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
