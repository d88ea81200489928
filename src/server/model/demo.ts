/**
 * A deterministic demo data set: the same seed and options give the same facts, byte for byte.
 * Several advertisers with campaigns, ads and keywords whose names hold commas, quotes and non-ASCII,
 * hourly data with a daily rhythm, bot clicks, and hours without data. A counter it does not model is 0.
 */
import { SECONDS_PER_DAY, SECONDS_PER_HOUR } from "../../core/calendar";
import { seededRandom } from "../seeded-random";
import { ZERO_COUNTS } from "./counters";
import type { LoadLine } from "./facts";

export interface DemoOptions {
  seed: number;
  /** Days of hourly data, ending just before `end`. */
  days: number;
  /** Epoch seconds, midnight UTC: the first hour after the data. */
  end: number;
  advertisers: number;
  campaignsPerAdvertiser: number;
  adsPerCampaign: number;
  keywordsPerAd: number;
  /** Share of hours of an ad that carry data, 0..1. */
  activity: number;
}

const ADVERTISERS = ["Acme Outdoor", "Globex, Inc.", 'Café "Zürich" GmbH', "東京メディア", "Søren & Co"];
const CAMPAIGNS = [
  "Spring, 2026",
  'Summer "Sale"',
  "Été 🌞",
  "Rückkehr",
  "Black Friday",
  "日本語キャンペーン",
  "Back to school\nLine two",
  "Évergreen",
];
const ADS = ["Banner A", "Banner B, wide", 'Video "15s"', "Texte écrit", "Carousel"];
const KEYWORDS = ["running shoes", "trail, running", '"best" boots', "chaussures", "ランニング", "hiking poles"];

function pick<T>(list: readonly T[], index: number): T {
  return list[index % list.length] as T;
}

/** Hourly traffic shape: quiet at night, busy in the evening (UTC). */
const DAILY_RHYTHM = [
  0.2, 0.15, 0.1, 0.1, 0.1, 0.15, 0.3, 0.5, 0.7, 0.8, 0.85, 0.9, 1, 0.95, 0.9, 0.9, 0.95, 1, 1.1, 1.2, 1.1, 0.9, 0.6,
  0.35,
];

export function* demoFacts(options: DemoOptions): Generator<LoadLine> {
  const rand = seededRandom(options.seed);
  const start = options.end - options.days * SECONDS_PER_DAY;
  let campaignId = 0;
  let adId = 1000;
  let keywordId = 100_000;
  for (let a = 0; a < options.advertisers; a += 1) {
    const advertiser = a < ADVERTISERS.length ? pick(ADVERTISERS, a) : `Advertiser ${a + 1}`;
    for (let c = 0; c < options.campaignsPerAdvertiser; c += 1) {
      campaignId += 1;
      const campaign = pick(CAMPAIGNS, campaignId - 1 + a);
      for (let d = 0; d < options.adsPerCampaign; d += 1) {
        adId += 1;
        const ad = pick(ADS, adId + c);
        const entities = { advertiser, campaignId, campaign, adId, ad };
        const reach = 50 + Math.floor(rand() * 400);
        const ctr = 0.01 + rand() * 0.04;
        const cpmMicros = 500_000 + Math.floor(rand() * 4_000_000);
        const keywords = Array.from({ length: options.keywordsPerAd }, () => {
          keywordId += 1;
          return { keywordId, keyword: pick(KEYWORDS, keywordId + adId) };
        });
        for (let hour = start; hour < options.end; hour += SECONDS_PER_HOUR) {
          if (rand() >= options.activity) continue;
          const rhythm = DAILY_RHYTHM[(hour / SECONDS_PER_HOUR) % 24] as number;
          const views = Math.floor(reach * rhythm * (0.5 + rand()));
          const clicks = Math.floor(views * ctr * (0.5 + rand()));
          const botClicks = Math.floor(clicks * rand() * 0.2);
          const conversions = Math.floor((clicks - botClicks) * rand() * 0.15);
          const spendingMicros = Math.round((views * cpmMicros) / 1000);
          const counts = {
            ...ZERO_COUNTS,
            views,
            clicks,
            bot_clicks: botClicks,
            conversions,
            spending: spendingMicros,
          };
          yield { kind: "ad", fact: { ...entities, hour, counts } };
          for (const k of keywords) {
            if (rand() >= 0.6) continue;
            const kViews = Math.floor(views * rand() * 0.5);
            const kClicks = Math.floor(kViews * ctr * (0.5 + rand()));
            const kBot = Math.floor(kClicks * rand() * 0.2);
            yield {
              kind: "keyword",
              fact: {
                ...entities,
                ...k,
                hour,
                counts: {
                  views: kViews,
                  clicks: kClicks,
                  bot_clicks: kBot,
                  spending: Math.round((kViews * cpmMicros) / 1000),
                },
              },
            };
          }
        }
      }
    }
  }
}
