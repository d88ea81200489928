/**
 * A service for the picture formats (html, chart): 13 campaigns over 4 days, so a page draws the top 10
 * and sums 3 as "other"; campaign 1 sells the most clicks, campaign 13 the fewest. The first names are
 * what an attacker would type into a page: markup, a closing </script>, a comment, entities, terminal
 * control sequences, a huge name. Loaded and keyed through the `serve` operator commands, served by a
 * real server on 127.0.0.1.
 */
import type { RefLine } from "./reference";
import { serveLinesWithKey } from "./serve";

export const ESC = "\u001b";
export const PICTURE_NAMES: Readonly<Record<number, string>> = {
  1: "</script><script>window.__pwned = 1</script>",
  2: '<img src=x onerror="window.__pwned = 2">',
  3: `${ESC}[31mRED${ESC}[0m${ESC}]0;pwned-title\u0007`,
  4: '=HYPERLINK("http://evil.example/","x")',
  5: "&amp; \"double\" 'single' <!-- open comment",
  6: `huge ${"x".repeat(400)}`,
};
export const CAMPAIGNS = 13;
export const DAYS = ["2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04"];

export function campaignName(id: number): string {
  return PICTURE_NAMES[id] ?? `Campaign ${id}`;
}

/** Campaign c on day d: the counters, clicks falling with c; a zero-click day for campaign 13. */
export function pictureLines(): RefLine[] {
  const lines: RefLine[] = [];
  for (let c = 1; c <= CAMPAIGNS; c += 1) {
    DAYS.forEach((day, d) => {
      lines.push({
        advertiser: "Acme Outdoor",
        campaign_id: c,
        campaign: campaignName(c),
        ad_id: 100 + c,
        ad: `ad ${c}`,
        hour: `${day}T12:00:00Z`,
        views: 1000 + 10 * c + d,
        clicks: c === CAMPAIGNS && d === 0 ? 0 : 3 * (CAMPAIGNS + 1 - c) + d,
        bot_clicks: 0,
        spending: Math.round((c * 0.75 + d * 0.1) * 1e6) / 1e6,
        conversions: (c + d) % 3,
      });
    });
  }
  return lines;
}

export async function startPictureService(): Promise<{ url: string; key: string; lines: RefLine[] }> {
  const lines = pictureLines();
  return { ...(await serveLinesWithKey("pictures", lines)), lines };
}
