/** What `serve` stores: hourly facts per ad and per keyword, with the entities they belong to. */

import { SECONDS_PER_DAY } from "../../core/calendar";

export interface Entities {
  advertiser: string;
  campaignId: number;
  campaign: string;
  adId: number;
  ad: string;
}

export interface AdFact extends Entities {
  hour: number;
  views: number;
  clicks: number;
  botClicks: number;
  conversions: number;
  spendingMicros: number;
}

export interface KeywordFact extends Entities {
  keywordId: number;
  keyword: string;
  hour: number;
  views: number;
  clicks: number;
  botClicks: number;
  spendingMicros: number;
}

/** One line of the load format: one hour of one ad, or of one keyword. */
export type LoadLine = { kind: "ad"; fact: AdFact } | { kind: "keyword"; fact: KeywordFact };

/** The midnight (UTC, epoch seconds) of the day holding `hour`. */
export function dayOf(hour: number): number {
  return hour - (hour % SECONDS_PER_DAY);
}
