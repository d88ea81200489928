/**
 * The server's one source of repeatable randomness (the demo data, `--faults` choices): the same seed
 * gives the same sequence on every machine and Node version, which `Math.random` cannot promise.
 */

/** mulberry32: small, fast, and the same everywhere; numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
