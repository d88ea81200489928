/**
 * The cron words of --from/--to: `today`, `yesterday`, `-Nd` (N days before today), all UTC days.
 * They become bare dates, which the contract reads as the start of the day for `from` and its last
 * second for `to`. Anything else is passed on as written, for the contract to judge.
 */
export function resolveWhen(text: string, now: Date): string {
  const word = text.trim().toLowerCase();
  const day = (offset: number) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - offset));
  let date: Date | undefined;
  if (word === "today") date = day(0);
  else if (word === "yesterday") date = day(1);
  else {
    const match = /^-(\d{1,5})d$/.exec(word);
    if (match) date = day(Number(match[1]));
  }
  return date ? date.toISOString().slice(0, 10) : text.trim();
}
