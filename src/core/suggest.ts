/**
 * The words nearest a mistyped one, by the rule commander uses for unknown commands and options (its
 * suggestSimilar, which it does not export): at most 3 edits (a swap of two neighbours is one), more than
 * 40% of the longer word kept, only the closest, sorted; case aside. Used where commander does not look: an option's
 * other long name (`--dims` of `--dims, --dimensions`), a help topic, a format.
 */
const MAX_EDITS = 3;
const MIN_SIMILARITY = 0.4;

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const above = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The candidates nearest `word`, closest first by the rule above; none when nothing is near. */
export function nearestWords(word: string, candidates: readonly string[]): string[] {
  let best = MAX_EDITS;
  let near: string[] = [];
  for (const candidate of new Set(candidates)) {
    if (candidate.length <= 1) continue;
    // `CSV` means csv: case is no edit (commander counts it as one).
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    const length = Math.max(word.length, candidate.length);
    if ((length - distance) / length <= MIN_SIMILARITY) continue;
    if (distance < best) {
      best = distance;
      near = [candidate];
    } else if (distance === best) near.push(candidate);
  }
  return near.sort((a, b) => a.localeCompare(b));
}

/** `did you mean X?` / `did you mean one of X, Y?`, or undefined when nothing is near. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const near = nearestWords(word, candidates);
  if (near.length === 0) return undefined;
  return near.length === 1 ? `did you mean ${near[0]}?` : `did you mean one of ${near.join(", ")}?`;
}
