/** The contract's row order (entity id, then date), as the stages that merge-join or regroup rows need it. */
import type { ReportMeta, ReportRow } from "../contract";

const ENTITY_ID_KEYS = ["campaign_id", "ad_id", "keyword_id"] as const;

/** The `dimensions` key holding the entity's id (`campaign_id` for `campaign`), or undefined without one. */
export function entityIdKey(meta: ReportMeta): string | undefined {
  const entity = meta.dimensions.find((d) => d !== "date");
  return entity === undefined ? undefined : (ENTITY_ID_KEYS.find((k) => k.startsWith(entity)) ?? `${entity}_id`);
}

export type OrderPart = number | string;

/** Numbers as sent (the contract's ids); anything else as text. */
export function orderPart(row: ReportRow, key: string | undefined): OrderPart {
  if (key === undefined) return 0;
  const value = row.dimensions[key];
  return typeof value === "number" && Number.isFinite(value) ? value : String(value ?? "");
}

/** A total order, whatever a service sends: numbers before text, numbers by value, text by code point. */
export function compareParts(a: OrderPart, b: OrderPart): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
