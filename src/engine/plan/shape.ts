/**
 * The flags that shape a report after it is fetched (--fields, --sort, --top, --fill, --date-format),
 * checked before anything is sent, and turned into the transform stages' plan.
 */
import { ceilSeconds, DIMENSION_KEYS, parseInstant } from "../../contract";
import { UsageError } from "../../core/errors";
import type { DateFormat } from "../../core/formats";
import { quote } from "../../core/quote";
import { TimeZone } from "../../core/time-zone";
import { readWholeNumber } from "../../core/whole-number";
import { formatNamed } from "../../format/registry";
import { utcBuckets, zoneBuckets } from "../../transform/buckets";
import { type DateText, epochDates, isoDates } from "../../transform/dates";
import { outputMetrics } from "../../transform/metrics";
import type { TransformPlan } from "../../transform/pipeline";
import type { CompareMode } from "./compare-modes";
import type { RequestPlan } from "./request";

/** The words of the flags that shape the rows after they are fetched. */
export interface ShapeWords {
  compare?: CompareMode | undefined;
  top?: string | undefined;
  sort?: string | undefined;
  dateFormat?: DateFormat | undefined;
  fill?: boolean | undefined;
  fields?: string | undefined;
}

function names(text: string, flag: string, valid: readonly string[]): string[] {
  const picked: string[] = [];
  for (const item of text.split(",").map((word) => word.trim())) {
    if (!valid.includes(item)) {
      const what = item === "" ? `an empty name in ${quote(text)}` : `${quote(item)} is not a column of this report`;
      throw new UsageError(`${flag}: ${what}; use ${valid.join(", ")}`);
    }
    if (picked.includes(item)) throw new UsageError(`${flag}: ${item} listed twice`);
    picked.push(item);
  }
  return picked;
}

function sortOrder(text: string, metrics: readonly string[]): NonNullable<TransformPlan["sort"]> {
  const [metric = "", direction, ...rest] = text.split(":").map((part) => part.trim());
  if (!metrics.includes(metric)) {
    throw new UsageError(`--sort: ${quote(metric)} is not a metric of this report; use ${metrics.join(", ")}`, {
      hint: "sort by one of the metrics output (--metrics), with :asc or :desc (default desc)",
    });
  }
  if (rest.length > 0 || (direction !== undefined && direction !== "asc" && direction !== "desc")) {
    throw new UsageError(`--sort: ${quote(text)} is not METRIC, METRIC:asc or METRIC:desc`);
  }
  return { metric, descending: direction !== "asc" };
}

function topCount(text: string): number {
  const count = readWholeNumber(text.trim());
  if (count === undefined || count < 1) throw new UsageError(`--top: ${quote(text)} is not a whole number >= 1`);
  return count;
}

function fillRange(plan: RequestPlan): TransformPlan["fill"] {
  const { request } = plan;
  if (!request.dimensions.includes("date")) {
    throw new UsageError("--fill needs date in --dims: it fills the empty date buckets of the range");
  }
  const entity = request.dimensions.find((d) => d !== "date");
  const from = parseInstant(request.from, "from");
  const to = parseInstant(request.to, "to");
  if (from === undefined || to === undefined) return undefined; // planRequest has already refused them
  return {
    fromSec: ceilSeconds(from),
    toSec: to.sec,
    clock:
      plan.zone !== TimeZone.UTC && plan.bucketUnit !== undefined
        ? zoneBuckets(plan.zone, plan.bucketUnit)
        : utcBuckets(plan.granularity),
    entityKey: entity === undefined ? undefined : DIMENSION_KEYS[entity][0],
  };
}

/** `keepCounters`: see MetricChoice; the picture formats always keep them. */
/** ISO dates as the text formats show them: in the zone of --tz, with its offset where a time is shown. */
function isoDatesOf(plan: RequestPlan): DateText {
  if (plan.zone === TimeZone.UTC) return isoDates(plan.granularity);
  const hourly = plan.bucketUnit === "hour";
  return (sec) => plan.zone.bucketText(sec, hourly);
}

export function planShape(flags: ShapeWords, plan: RequestPlan, format: string, keepCounters = false): TransformPlan {
  const entry = formatNamed(format);
  const metrics = {
    listed: plan.listed,
    compare: flags.compare !== undefined,
    keepCounters: keepCounters || entry?.keepsCounters === true,
  };
  const outputs = outputMetrics(metrics);
  const dimensionKeys = [...new Set(plan.request.dimensions.flatMap((d) => DIMENSION_KEYS[d]))];
  const entityKeys = dimensionKeys.filter((k) => k !== "date");
  const columns = [...entityKeys, ...dimensionKeys.filter((k) => k === "date"), ...outputs];
  const top = flags.top === undefined ? undefined : topCount(flags.top);
  const sort =
    flags.sort !== undefined
      ? sortOrder(flags.sort, outputs)
      : top !== undefined && outputs[0] !== undefined
        ? { metric: outputs[0], descending: true }
        : undefined;
  const wanted: DateFormat | undefined = flags.dateFormat;
  const sent: DateFormat = entry?.epochDates === true ? "epoch" : "iso";
  return {
    metrics,
    fill: flags.fill === true ? fillRange(plan) : undefined,
    sort,
    top,
    fields: flags.fields === undefined ? undefined : names(flags.fields, "--fields", columns),
    dates: wanted === undefined || wanted === sent ? undefined : wanted === "iso" ? isoDatesOf(plan) : epochDates,
    // The formats with a totals row: it covers every row, those --top leaves out too.
    totals: entry?.totals === true,
  };
}
