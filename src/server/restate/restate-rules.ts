/**
 * The operator's restatement verbs, written once over SQL either backend runs (sql/restate-sql.ts), each in
 * the caller's one write transaction: seed a model, move its clock, take it off.
 */
import { SECONDS_PER_DAY as DAY, SECONDS_PER_HOUR as HOUR } from "../../core/calendar";
import type { SqlParams } from "../sql/dialect";
import {
  AD_IDS_SQL,
  ADS_SQL,
  CLEAR_DELETED_SQL,
  CLEAR_PAIRS_SQL,
  createModelSql,
  DATA_SPAN_SQL,
  DAY_COLUMNS,
  DELETED_ADS_SQL,
  dayTableSql,
  dropModelSql,
  INSERT_DELETED_SQL,
  INSERT_MODEL_SQL,
  INSERT_PAIR_SQL,
  insertDaysSql,
  LOADED_SPAN_SQL,
  MODEL_ROW_SQL,
  modelExistsSql,
  rewriteDaysSql,
  SET_CLOCK_SQL,
  UPDATE_MODEL_SQL,
} from "../sql/restate-sql";
import type { SqlRunner } from "../store/keys";
import { type Steps, step } from "../store/steps";
import {
  adPairs,
  changedDays,
  type DayState,
  type DeletedAd,
  dayState,
  daysInPlay,
  defaultDeletions,
  deletedAds,
  loadedState,
  type RestateModel,
} from "./model";

/** A model asked of a database that holds none, a load where one is (the operator's to fix). */
export class RestateError extends Error {
  override readonly name = "RestateError";
  constructor(
    message: string,
    /** What to run about it, with the database's --db added by the command. */
    readonly advice?: string,
  ) {
    super(message);
  }
}

export interface SeedRequest extends RestateModel {
  /** The clock to start at; undefined: midnight after the data's last hour. */
  clock: number | undefined;
  /** Ads to delete; undefined: a few (model.ts, defaultDeletions). */
  deletions: number | undefined;
}

export interface ModelStatus extends RestateModel {
  clock: number;
  deleted: DeletedAd[];
  /** First and last hour of the data as loaded, or undefined when it holds none. */
  span: { first: number; last: number } | undefined;
}

/** What a move of the clock rewrote. */
export interface ClockMove {
  status: ModelStatus;
  /** Days whose hours were rewritten. */
  days: number;
}

function* rows<R>(db: SqlRunner, sql: string, params?: SqlParams): Steps<R[]> {
  return yield* step(db.all<R>(sql, params));
}

function* runAll(db: SqlRunner, statements: readonly string[]): Steps<void> {
  for (const sql of statements) yield* rows(db, sql);
}

function* hasModel(db: SqlRunner): Steps<boolean> {
  const [row] = yield* rows<{ n: number }>(db, modelExistsSql(db.dialect));
  return Number(row?.n ?? 0) > 0;
}

function* span(db: SqlRunner, sql: string): Steps<ModelStatus["span"]> {
  const [row] = yield* rows<{ first_hour: number | null; last_hour: number | null }>(db, sql);
  if (!row || row.first_hour === null || row.last_hour === null) return undefined;
  return { first: Number(row.first_hour), last: Number(row.last_hour) };
}

export function* modelStatus(db: SqlRunner): Steps<ModelStatus | undefined> {
  if (!(yield* hasModel(db))) return undefined;
  const [row] = yield* rows<{ seed: number; horizon_days: number; clock: number }>(db, MODEL_ROW_SQL);
  if (!row) return undefined;
  const deleted = (yield* rows<{ ad_id: number; deleted_at: number }>(db, DELETED_ADS_SQL)).map((r) => ({
    adId: Number(r.ad_id),
    deletedAt: Number(r.deleted_at),
  }));
  return {
    seed: Number(row.seed),
    horizonDays: Number(row.horizon_days),
    clock: Number(row.clock),
    deleted,
    span: yield* span(db, DATA_SPAN_SQL),
  };
}

function* requireModel(db: SqlRunner): Steps<ModelStatus> {
  const status = yield* modelStatus(db);
  if (!status) throw new RestateError("the database holds no restatement model", "adreport serve restate --seed 1");
  return status;
}

/** Days a batch of the temporary table takes: 6 parameters a day, well within both backends' limits. */
const DAYS_PER_INSERT = 500;

/** Rewrites `days` from the base as their states say. */
function* rewrite(db: SqlRunner, days: readonly DayState[]): Steps<void> {
  if (days.length === 0) return;
  yield* runAll(db, dayTableSql(db.dialect));
  for (let at = 0; at < days.length; at += DAYS_PER_INSERT) {
    const batch = days.slice(at, at + DAYS_PER_INSERT);
    const params: SqlParams = {};
    batch.forEach((d, i) => {
      const values = [
        d.day,
        d.visibleEnd,
        d.factors.conversionsMissing,
        d.factors.botUndetected,
        d.factors.viewsExtra,
        d.factors.spendingOff,
        d.moved ? 1 : 0,
      ];
      DAY_COLUMNS.forEach((column, c) => {
        params[`d${i}_${column}`] = values[c] as number;
      });
    });
    yield* rows(db, insertDaysSql(batch.length), params);
  }
  yield* runAll(db, rewriteDaysSql(db.dialect));
}

/** Every day of the data (none when it has no hour). */
const wholeSpan = (s: ModelStatus["span"]) =>
  s ? { from: Math.floor(s.first / DAY) * DAY, to: Math.floor(s.last / DAY) * DAY } : { from: 0, to: -1 };

/** The first hour of a deletion, or Infinity. */
const firstDeletion = (deleted: readonly DeletedAd[]) => Math.min(Infinity, ...deleted.map((d) => d.deletedAt));

/** The day states of a model's reading at `clock`. */
const modelReading = (model: RestateModel, clock: number, deleted: readonly DeletedAd[]) => {
  const first = firstDeletion(deleted);
  return (day: number) => dayState(model, day, clock, first);
};

/** Every day of the data as loaded: the state the tables `serve` reads hold before a model and after it. */
function* restoreLoaded(db: SqlRunner, status: ModelStatus): Steps<void> {
  const { from, to } = wholeSpan(status.span);
  const days = changedDays(from, to, modelReading(status, status.clock, status.deleted), loadedState);
  yield* rows(db, CLEAR_DELETED_SQL);
  yield* rewrite(db, days);
}

/**
 * Seeds a model (or seeds it again: the data as loaded is kept from the first seeding), deletes its ads and
 * sets its clock; the tables `serve` reads then hold the data as it reads at the clock.
 */
export function* seedModel(db: SqlRunner, request: SeedRequest): Steps<ClockMove> {
  const before = yield* modelStatus(db);
  if (before) yield* restoreLoaded(db, before);
  else {
    const loaded = yield* span(db, LOADED_SPAN_SQL);
    if (!loaded) throw new RestateError("the database holds no data to restate", "adreport serve demo");
    yield* runAll(db, createModelSql(db.dialect));
    yield* rows(db, INSERT_MODEL_SQL, { seed: request.seed, horizon: request.horizonDays, clock: 0 });
  }
  const dataSpan = (yield* span(db, DATA_SPAN_SQL)) as NonNullable<ModelStatus["span"]>;
  const clock = request.clock ?? Math.floor(dataSpan.last / DAY) * DAY + DAY;
  const endHour = dataSpan.last + HOUR;
  const ads = (yield* rows<{ ad_id: number }>(db, AD_IDS_SQL)).map((r) => Number(r.ad_id));
  const count = request.deletions ?? defaultDeletions(ads.length);
  const deleted = deletedAds(request.seed, ads, count, dataSpan.first, endHour);
  for (const d of deleted) yield* rows(db, INSERT_DELETED_SQL, { ad: d.adId, at: d.deletedAt });
  const gone = new Set(deleted.map((d) => d.adId));
  const owners = (yield* rows<{ ad_id: number; campaign_id: number; advertiser_id: number }>(db, ADS_SQL))
    .map((r) => ({ adId: Number(r.ad_id), campaignId: Number(r.campaign_id), advertiserId: Number(r.advertiser_id) }))
    .filter((ad) => !gone.has(ad.adId));
  yield* rows(db, CLEAR_PAIRS_SQL);
  for (const pair of adPairs(owners)) yield* rows(db, INSERT_PAIR_SQL, { ad: pair.adId, partner: pair.partnerId });
  yield* rows(db, UPDATE_MODEL_SQL, {
    seed: request.seed,
    horizon: request.horizonDays,
    clock,
  });
  const model = { seed: request.seed, horizonDays: request.horizonDays };
  const { from, to } = wholeSpan(dataSpan);
  const days = changedDays(from, to, loadedState, modelReading(model, clock, deleted));
  yield* rewrite(db, days);
  return { status: yield* requireModel(db), days: days.length };
}

/** Where a move takes the clock: to an instant, or forward by seconds from where it is. */
export type ClockTarget = { to: number } | { by: number };

/** The last second a clock may show: one `serve clock --set` reads back (a year of four digits). */
const LAST_CLOCK = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;

/** Moves the clock: the days whose state that changes are rewritten, nothing else. */
export function* moveClock(db: SqlRunner, target: ClockTarget): Steps<ClockMove> {
  const status = yield* requireModel(db);
  const clock = "to" in target ? target.to : status.clock + target.by;
  if (clock > LAST_CLOCK) {
    throw new RestateError(
      "the clock would go past 9999-12-31T23:59:59Z, which no date-time of four digits shows; it was not moved",
      "adreport serve clock --set 9999-12-31T23:00Z",
    );
  }
  const inPlay = daysInPlay(status, status.clock, clock);
  const data = wholeSpan(status.span);
  const days = changedDays(
    Math.max(inPlay.from, data.from),
    Math.min(inPlay.to, data.to),
    modelReading(status, status.clock, status.deleted),
    modelReading(status, clock, status.deleted),
  );
  yield* rewrite(db, days);
  yield* rows(db, SET_CLOCK_SQL, { clock });
  return { status: { ...status, clock }, days: days.length };
}

/** Takes the model off: the data as loaded again, every hour of it, and the model's tables dropped. */
export function* removeModel(db: SqlRunner): Steps<ModelStatus> {
  const status = yield* requireModel(db);
  yield* restoreLoaded(db, status);
  yield* runAll(db, dropModelSql());
  return status;
}

/** Refuses a load into a database with a model: its rows would be overwritten by the next move of the clock. */
export function* refuseWhileRestating(db: SqlRunner): Steps<void> {
  if (yield* hasModel(db)) {
    throw new RestateError(
      "the database restates its data: a load would be undone by the next move of its clock",
      "adreport serve restate --off",
    );
  }
}
