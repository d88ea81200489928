/**
 * The counters `serve` stores, declared once. The layout's columns (sql/ddl.ts), the rollups
 * (sql/rollup-sql.ts), the reports' sums (sql/fact-columns.ts), the load format (model/load-format.ts), both
 * loaders (sqlite/writer.ts, pg/writer.ts), an export loaded (load-export/) and the schema upgrade
 * (sql/schema-version.ts) are made from this table. A metric added to the contract (contract/fields.ts)
 * fails the type check below until it has its line here; that line is the whole change to `serve` (the
 * load format then asks for it, the demo data has it at 0, `serve upgrade` adds its column).
 */
import { KEYWORD_METRICS, type Metric } from "../../contract";
import { metricKind } from "../../core/metric-kind";

interface CounterLine {
  /** Its field in the load format and its key in a fact's counts. */
  readonly name: string;
  /** The report metric it is summed into; none for a counter only taken off another. */
  readonly metric?: Metric;
  /** Counted within this other counter and taken off it wherever it is summed (bot clicks off clicks); one a counter. */
  readonly deducts?: string;
}

/** In the layout's column order. */
const LINES = [
  { name: "views", metric: "views" },
  { name: "clicks", metric: "clicks" },
  { name: "bot_clicks", deducts: "clicks" },
  { name: "conversions", metric: "conversions" },
  { name: "spending", metric: "spending" },
] as const satisfies readonly CounterLine[];

export type CounterName = (typeof LINES)[number]["name"];

type Covered = Extract<(typeof LINES)[number], { metric: string }>["metric"];
/** A contract metric with no line above: the type check fails here, naming it. */
const everyMetricCounted: Exclude<Metric, Covered> extends never ? true : Exclude<Metric, Covered> = true;
void everyMetricCounted;

export interface Counter {
  readonly name: CounterName;
  /** Its column in the hourly facts and (if it is a metric) the rollups: money is kept in millionths. */
  readonly column: string;
  readonly metric: Metric | undefined;
  /** Loaded as an amount with at most 6 decimals and stored as integer millionths. */
  readonly money: boolean;
  /** Keyword facts carry it too (the contract's keyword metrics, and what is taken off them). */
  readonly keyword: boolean;
  /** The counter that is taken off this one wherever it is summed. */
  readonly deductedBy: CounterName | undefined;
  /** The counter this one is taken off. */
  readonly deducts: CounterName | undefined;
}

function counterOf(line: CounterLine): Counter {
  const metricOf = (name: string) => (LINES as readonly CounterLine[]).find((l) => l.name === name)?.metric;
  const metric = line.metric;
  const counted = metric ?? (line.deducts === undefined ? undefined : metricOf(line.deducts));
  const money = metric !== undefined && metricKind(metric) === "money";
  return {
    name: line.name as CounterName,
    column: money ? `${line.name}_micros` : line.name,
    metric,
    money,
    keyword: counted !== undefined && KEYWORD_METRICS.includes(counted),
    deductedBy: LINES.find((l) => "deducts" in l && l.deducts === line.name)?.name,
    deducts: line.deducts as CounterName | undefined,
  };
}

export const COUNTERS: readonly Counter[] = LINES.map(counterOf);

/** The counters of an ad's hour, of a keyword's hour: the keyword's are fewer. */
export const AD_COUNTERS = COUNTERS;
export const KEYWORD_COUNTERS: readonly Counter[] = COUNTERS.filter((c) => c.keyword);

/** The counters summed into report metrics, in column order (counters only taken off another are not). */
export const METRIC_COUNTERS: readonly Counter[] = COUNTERS.filter((c) => c.metric !== undefined);

/** An hour's counts as stored (money in millionths). */
export type Counts = Record<CounterName, number>;

/** Every counter at 0: what a fact has of a counter its source does not know (spread it, then set the known). */
export const ZERO_COUNTS: Readonly<Counts> = Object.freeze(
  Object.fromEntries(COUNTERS.map((c) => [c.name, 0])) as Counts,
);
