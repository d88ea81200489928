/** `adreport serve restate`: seeds the restatement model on a database (or takes it off), and sets its clock. */
import { UsageError } from "../../core/errors";
import { databaseLabel } from "../../server";
import type { Context } from "../context";
import { type DbOptions, withStore } from "./operator";
import {
  clockText,
  DEFAULT_HORIZON,
  DEFAULT_RESTATE_SEED,
  modelLine,
  parseClock,
  parseHorizon,
} from "./restate-options";

export interface RestateOptions extends DbOptions {
  seed?: number | undefined;
  horizon?: string | undefined;
  clock?: string | undefined;
  deletions?: number | undefined;
  off?: true | undefined;
}

export async function runRestate(ctx: Context, options: RestateOptions): Promise<void> {
  const label = databaseLabel(options.db);
  if (options.off) {
    const other = (["seed", "horizon", "clock", "deletions"] as const).find((k) => options[k] !== undefined);
    if (other) throw new UsageError(`--off takes the model off; --${other} has nothing to do with it`);
    const status = await withStore(ctx, options.db, false, (store) => store.removeRestatement());
    ctx.io.err.write(
      `adreport serve: ${label} no longer restates (seed ${status.seed}); it answers its data as loaded\n`,
    );
    return;
  }
  const request = {
    seed: options.seed ?? DEFAULT_RESTATE_SEED,
    horizonDays: parseHorizon("--horizon", options.horizon ?? DEFAULT_HORIZON),
    clock: options.clock === undefined ? undefined : parseClock("--clock", options.clock),
    deletions: options.deletions,
  };
  const started = performance.now();
  const move = await withStore(ctx, options.db, false, (store) => store.restate(request));
  const ms = Math.round(performance.now() - started);
  ctx.io.err.write(`adreport serve: ${label}: ${modelLine(move.status)} (${move.days} days written in ${ms} ms)\n`);
  ctx.io.out.write(`${clockText(move.status.clock)}\n`);
}
