/** What `serve` stores: hourly facts per ad and per keyword, with the entities they belong to. */

import { SECONDS_PER_DAY } from "../../core/calendar";
import type { Counts } from "./counters";

export interface Entities {
  advertiser: string;
  campaignId: number;
  campaign: string;
  adId: number;
  ad: string;
}

export interface AdFact extends Entities {
  hour: number;
  counts: Counts;
}

export interface KeywordFact extends Entities {
  keywordId: number;
  keyword: string;
  hour: number;
  /** Only the keyword counters (model/counters.ts). */
  counts: Partial<Counts>;
}

/** One line of the load format: one hour of one ad, or of one keyword. */
export type LoadLine = { kind: "ad"; fact: AdFact } | { kind: "keyword"; fact: KeywordFact };

/** The midnight (UTC, epoch seconds) of the day holding `hour`. */
export function dayOf(hour: number): number {
  return hour - (hour % SECONDS_PER_DAY);
}
