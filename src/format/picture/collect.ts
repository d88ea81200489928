/**
 * What a picture of a report needs, gathered row by row: counters summed per entity and date (not the rows
 * themselves), then the entities ranked by the first metric over the whole range, the first few drawn each
 * as a series and, when asked, the rest summed into one "other" series.
 */
import type { ReportRow } from "../../contract";
import type { Columns } from "../columns";
import { addMetrics, addTally, emptyTally, metricValue, type Tally } from "./tally";

export interface PictureSeries {
  label: string;
  /** True for the series summing every entity past the top ones. */
  other: boolean;
  /** For each metric, its value at each date (or one value over the range when there is no date); null when none. */
  values: Record<string, Array<number | null>>;
}

export interface Picture {
  metrics: string[];
  /** The x axis of a line chart; undefined when the report has no date dimension (a bar chart of the series). */
  dates: string[] | undefined;
  series: PictureSeries[];
  /** How many entities the report has (1 when it has no entity dimension). */
  entities: number;
  /** False when the report has no entity dimension: its one series is every row, labelled "all". */
  byEntity: boolean;
}

interface Entity {
  label: string;
  total: Tally;
  byDate: Map<string, Tally>;
}

const LABEL_LENGTH = 60;

function shortened(text: string): string {
  return text.length <= LABEL_LENGTH ? text : `${text.slice(0, LABEL_LENGTH - 1)}…`;
}

/**
 * `name (id)` when the entity has both, else its values joined; `acme: name (id)` over several accounts,
 * whose entities may share names and ids.
 */
function labelOf(keys: readonly string[], dimensions: ReportRow["dimensions"]): string {
  const text = (key: string) => {
    const value = dimensions[key];
    return value === null || value === undefined ? "" : String(value);
  };
  const rest = keys.filter((key) => key !== "profile");
  if (rest.length === 0) return shortened(keys.map(text).join(" / "));
  const account = keys.includes("profile") ? `${text("profile")}: ` : "";
  const id = rest.find((key) => key.endsWith("_id"));
  if (id !== undefined && rest.includes("name")) return shortened(`${account}${text("name")} (${text(id)})`);
  return shortened(`${account}${rest.map(text).join(" / ")}`);
}

export class PictureCollector {
  private readonly entityKeys: string[];
  private readonly entities = new Map<string, Entity>();
  private readonly dates = new Map<string, { order: number | string; label: string }>();
  readonly grandTotal = emptyTally();

  constructor(
    private readonly columns: Columns,
    private readonly options: { top: number; other: boolean },
  ) {
    this.entityKeys = columns.dimensionKeys.filter((key) => key !== "date");
  }

  get dated(): boolean {
    return this.columns.dimensionKeys.includes("date");
  }

  /** `dateLabel`: how the row's date is written (the formatter's own text for it). */
  add(row: ReportRow, dateLabel: string | undefined): void {
    addMetrics(this.grandTotal, row.metrics);
    const key = this.entityKeys.length === 0 ? "" : JSON.stringify(this.entityKeys.map((k) => row.dimensions[k]));
    let entity = this.entities.get(key);
    if (entity === undefined) {
      entity = {
        label: this.entityKeys.length === 0 ? "all" : labelOf(this.entityKeys, row.dimensions),
        total: emptyTally(),
        byDate: new Map(),
      };
      this.entities.set(key, entity);
    }
    addMetrics(entity.total, row.metrics);
    if (!this.dated) return;
    const raw = row.dimensions.date;
    const dateKey = String(raw);
    if (!this.dates.has(dateKey))
      this.dates.set(dateKey, { order: typeof raw === "number" ? raw : dateKey, label: dateLabel ?? dateKey });
    let tally = entity.byDate.get(dateKey);
    if (tally === undefined) {
      tally = emptyTally();
      entity.byDate.set(dateKey, tally);
    }
    addMetrics(tally, row.metrics);
  }

  picture(): Picture {
    const metrics = this.columns.metrics;
    const first = metrics[0];
    const rank = (entity: Entity) => (first === undefined ? undefined : metricValue(first, entity.total));
    const ranked = [...this.entities.values()].sort((a, b) => {
      const [x, y] = [rank(a), rank(b)];
      if (x !== y) return (y ?? Number.NEGATIVE_INFINITY) - (x ?? Number.NEGATIVE_INFINITY);
      return a.label < b.label ? -1 : a.label > b.label ? 1 : 0;
    });
    const shown = ranked.slice(0, this.options.top);
    const rest = ranked.slice(this.options.top);
    const drawn = shown.map((entity) => ({ entity, other: false }));
    if (this.options.other && rest.length > 0) {
      const other: Entity = { label: `other (${rest.length})`, total: emptyTally(), byDate: new Map() };
      for (const entity of rest) {
        addTally(other.total, entity.total);
        for (const [date, tally] of entity.byDate) {
          let into = other.byDate.get(date);
          if (into === undefined) {
            into = emptyTally();
            other.byDate.set(date, into);
          }
          addTally(into, tally);
        }
      }
      drawn.push({ entity: other, other: true });
    }
    const dateKeys = this.dated ? this.sortedDateKeys() : undefined;
    const series = drawn.map(({ entity, other }) => {
      const values: Record<string, Array<number | null>> = {};
      for (const metric of metrics) {
        values[metric] =
          dateKeys === undefined
            ? [metricValue(metric, entity.total) ?? null]
            : dateKeys.map((date) => {
                const tally = entity.byDate.get(date);
                return tally === undefined ? null : (metricValue(metric, tally) ?? null);
              });
      }
      return { label: entity.label, other, values };
    });
    return {
      metrics: [...metrics],
      dates: dateKeys?.map((key) => this.dates.get(key)?.label ?? key),
      series,
      entities: this.entities.size,
      byEntity: this.entityKeys.length > 0,
    };
  }

  private sortedDateKeys(): string[] {
    return [...this.dates.entries()]
      .sort(([, a], [, b]) => {
        if (typeof a.order === "number" && typeof b.order === "number") return a.order - b.order;
        return String(a.order) < String(b.order) ? -1 : String(a.order) > String(b.order) ? 1 : 0;
      })
      .map(([key]) => key);
  }
}
