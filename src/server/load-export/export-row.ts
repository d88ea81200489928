/**
 * One line of an NDJSON export as `serve load --from-export` takes it: a report row as the contract declares
 * it (reportRowSchema), then what a load needs of it, each declared once here with the message a refusal
 * gives (exit 2). Checked in order, so a row with several faults is refused for the first.
 */
import * as z from "zod";
import { METRICS, type Metric, reportRowSchema } from "../../contract";
import { SECONDS_PER_HOUR as HOUR } from "../../core/calendar";
import { metricKind } from "../../core/metric-kind";

/** An export this cannot load, and why (the operator's input: exit 2). */
export class ExportShapeError extends Error {
  override readonly name = "ExportShapeError";
}

const MAX_NAME = 1000;

/** A value as a message shows it: JSON, cut short. */
const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 40);

const text = (what: string) => {
  const error = `${what} must be a text of 1 to ${MAX_NAME} characters`;
  return z.string({ error }).min(1, { error }).max(MAX_NAME, { error });
};

const profileSchema = z.looseObject({ profile: text("profile").optional() });

const hourStart = z
  .number({
    error: (issue) =>
      issue.input === undefined
        ? "no date; export with date among the dimensions (--dims campaign,date)"
        : `dimensions.date ${shown(issue.input)} is not the start of an hour in epoch seconds`,
  })
  .int({ error: (issue) => `dimensions.date ${shown(issue.input)} is not the start of an hour in epoch seconds` })
  .nonnegative({
    error: (issue) => `dimensions.date ${shown(issue.input)} is not the start of an hour in epoch seconds`,
  })
  .refine((date) => date % HOUR === 0, {
    error: (issue) => `dimensions.date ${shown(issue.input)} is not the start of an hour in epoch seconds`,
  });

const datedSchema = z.looseObject({
  keyword_id: z.never({ error: "a keyword row; keyword reports have no dates, so cannot be loaded" }).optional(),
  date: hourStart,
});

const id = (error: string) => z.number({ error }).int({ error }).positive({ error });
const name = text("dimensions.name");
const campaignSchema = z.looseObject({ campaign_id: id("campaign_id must be positive integers"), name });
const adSchema = z.looseObject({
  ad_id: id("ad_id and campaign_id must be positive integers"),
  campaign_id: id("ad_id and campaign_id must be positive integers"),
  name,
});

const count = (metric: Metric) => {
  const error = (issue: { input?: unknown }) => `metrics.${metric} is ${shown(issue.input)}, not a whole count >= 0`;
  return z.number().int({ error }).nonnegative({ error }).optional();
};
const amount = (metric: Metric) =>
  z
    .number()
    .nonnegative({ error: (issue) => `metrics.${metric} is ${shown(issue.input)}, not an amount >= 0` })
    .refine((value) => Math.abs(value * 1e6 - Math.round(value * 1e6)) <= 1e-3, {
      error: (issue) => `metrics.${metric} ${issue.input} has more than 6 decimals`,
    })
    .optional();
/** The contract's metrics in the order they are checked (amounts first); a metric the row lacks is loaded as 0. */
const CHECKED = [...METRICS].sort((a, b) => Number(metricKind(b) === "money") - Number(metricKind(a) === "money"));
const metricsSchema = z.looseObject(
  Object.fromEntries(CHECKED.map((m) => [m, metricKind(m) === "money" ? amount(m) : count(m)])),
);

export interface ExportRow {
  /** The account of an export over several (`report --profiles`). */
  profile: string | undefined;
  entity: "campaign" | "ad";
  campaignId: number;
  /** The ad a row becomes: the ad's, or for a campaign row the campaign's. */
  adId: number;
  name: string;
  date: number;
  metrics: Partial<Record<Metric, number>>;
}

/** The first fault of a failed check, as a line of the refusal. */
function checked<T>(result: z.ZodSafeParseResult<T>, line: number): T {
  if (result.success) return result.data;
  throw new ExportShapeError(`line ${line}: ${result.error.issues[0]?.message ?? "not a report row"}`);
}

/** A row the contract refuses: where, when it can tell (a metric that is not a number, say). */
function notARow(value: unknown, error: z.ZodError, line: number): ExportShapeError {
  const path = error.issues[0]?.path ?? [];
  if (path.length >= 2) {
    const at = path.reduce<unknown>((v, key) => (v as Record<PropertyKey, unknown>)[key as PropertyKey], value);
    const kind = path[0] === "metrics" ? "a number" : "a text or a number";
    return new ExportShapeError(`line ${line}: ${path.join(".")} is ${shown(at)}, not ${kind}`);
  }
  return new ExportShapeError(`line ${line}: not a report row (an object with dimensions and metrics)`);
}

/** Checks one export row (a JSON value) in order; throws ExportShapeError naming the line. */
export function parseExportRow(value: unknown, line: number): ExportRow {
  const hasProfile = typeof value === "object" && value !== null && "profile" in value;
  const profile = hasProfile ? checked(profileSchema.safeParse(value), line).profile : undefined;
  const row = reportRowSchema.safeParse(value);
  if (!row.success) throw notARow(value, row.error, line);
  const d = row.data.dimensions;
  const { date } = checked(datedSchema.safeParse(d), line);
  const entity = "ad_id" in d ? "ad" : "campaign_id" in d ? "campaign" : undefined;
  if (entity === undefined) {
    throw new ExportShapeError(
      `line ${line}: no campaign or ad; export with one among the dimensions (--dims campaign,date or ad,date)`,
    );
  }
  const ids =
    entity === "ad"
      ? checked(adSchema.safeParse(d), line)
      : { ...checked(campaignSchema.safeParse(d), line), ad_id: undefined };
  const metrics = checked(metricsSchema.safeParse(row.data.metrics), line);
  return {
    profile,
    entity,
    campaignId: ids.campaign_id,
    adId: ids.ad_id ?? ids.campaign_id,
    name: ids.name,
    date,
    metrics: Object.fromEntries(CHECKED.flatMap((m) => (metrics[m] === undefined ? [] : [[m, metrics[m]]]))),
  };
}
