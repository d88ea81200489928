/** How both backends write an hour of facts: the same hour written again replaces it. */

export const AD_HOUR_COLUMNS = "ad_id, hour, views, clicks, bot_clicks, conversions, spending_micros";
export const KEYWORD_HOUR_COLUMNS = "keyword_id, hour, views, clicks, bot_clicks, spending_micros";

export const AD_HOUR_UPSERT = `ON CONFLICT (ad_id, hour) DO UPDATE SET views = excluded.views, clicks = excluded.clicks,
  bot_clicks = excluded.bot_clicks, conversions = excluded.conversions, spending_micros = excluded.spending_micros`;
export const KEYWORD_HOUR_UPSERT = `ON CONFLICT (keyword_id, hour) DO UPDATE SET views = excluded.views, clicks = excluded.clicks,
  bot_clicks = excluded.bot_clicks, spending_micros = excluded.spending_micros`;
