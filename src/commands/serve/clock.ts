/**
 * `adreport serve clock`: the restatement model's clock, shown, set or moved forward. It writes the
 * database, so only whoever may write it moves the clock; every `serve` reading it answers at the new clock
 * within a quarter of a second (its freshness check), with no request of any API key involved.
 */
import { UsageError } from "../../core/errors";
import { databaseLabel } from "../../server";
import type { Context } from "../context";
import { type DbOptions, withStore } from "./operator";
import { clockText, modelLine, parseClock, parseStep } from "./restate-options";

export interface ClockOptions extends DbOptions {
  set?: string | undefined;
  advance?: string | undefined;
}

export async function runClock(ctx: Context, options: ClockOptions): Promise<void> {
  const label = databaseLabel(options.db);
  if (options.set !== undefined && options.advance !== undefined) {
    throw new UsageError("give --set or --advance, not both");
  }
  const target =
    options.set !== undefined
      ? { to: parseClock("--set", options.set) }
      : options.advance !== undefined
        ? { by: parseStep("--advance", options.advance) }
        : undefined;
  const started = performance.now();
  const move = await withStore(ctx, options.db, false, async (store) =>
    target === undefined ? { status: await store.restateStatus(), days: undefined } : await store.moveClock(target),
  );
  const ms = Math.round(performance.now() - started);
  if (!move.status) {
    throw new UsageError(`${label} holds no restatement model, so it has no clock`, {
      hint: "seed one with adreport serve restate (or serve demo --restate-seed N)",
    });
  }
  if (move.days === undefined) ctx.io.err.write(`adreport serve: ${label}: ${modelLine(move.status)}\n`);
  else {
    ctx.io.err.write(
      `adreport serve: ${label}: clock at ${clockText(move.status.clock)} (${move.days} days rewritten in ${ms} ms)\n`,
    );
  }
  ctx.io.out.write(`${clockText(move.status.clock)}\n`);
}
