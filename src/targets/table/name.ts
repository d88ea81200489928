/** What every table kind reads alike: --table (or the name --dims gives), and a job's earlier text `WHERE#table`. */
import { UsageError } from "../../core/errors";
import type { TargetWords } from "../kind";

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** --table, or `adreport_` and the dimensions (`adreport_campaign_date`); refused when no table's name. */
export function tableNameOf(words: TargetWords): string {
  const dims = (words.dimensions ?? "")
    .split(",")
    .map((d) => d.trim().toLowerCase())
    .filter((d) => /^[a-z]+$/.test(d));
  const table = words.table ?? `adreport_${dims.join("_")}`;
  if (!TABLE_NAME.test(table)) {
    throw new UsageError(`--table: ${JSON.stringify(table)} is not a table name (letters, digits and _, at most 63)`);
  }
  return table;
}

/** `sqlite:/abs/ads.db#t` as the database and the table (the table after the last #); undefined without one. */
export function splitTableText(text: string): { where: string; table: string } | undefined {
  const hash = text.lastIndexOf("#");
  return hash === -1 ? undefined : { where: text.slice(0, hash), table: text.slice(hash + 1) };
}

/** A database target, as every table kind says it. */
export const DATABASE_WHAT = "a database target";
