/** How both backends write an hour of facts: the same hour written again replaces it. */
import { AD_HOURS, type CountTable, counterColumns, countersOf, KEYWORD_HOURS } from "./fact-columns";

const columns = (t: CountTable) => `${t.id}, ${t.time}, ${counterColumns(t)}`;
const upsert = (t: CountTable) =>
  `ON CONFLICT (${t.id}, ${t.time}) DO UPDATE SET ${countersOf(t)
    .map((c) => `${c.column} = excluded.${c.column}`)
    .join(", ")}`;

export const AD_HOUR_COLUMNS = columns(AD_HOURS);
export const KEYWORD_HOUR_COLUMNS = columns(KEYWORD_HOURS);

export const AD_HOUR_UPSERT = upsert(AD_HOURS);
export const KEYWORD_HOUR_UPSERT = upsert(KEYWORD_HOURS);
