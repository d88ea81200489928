/** `adreport serve demo`: the deterministic demo data, into the database or as NDJSON. */
import { parseInstant } from "../../contract";
import { BARE_DATE, dayOfInstant, formatDateTime, SECONDS_PER_DAY, SECONDS_PER_HOUR } from "../../core/calendar";
import { InterruptedError, UsageError } from "../../core/errors";
import { openOutput, outputError } from "../../engine/run/output";
import { writeChunk } from "../../io/write";
import {
  databaseLabel,
  demoFacts,
  FACT_BATCH,
  formatLoadLine,
  type LoadLine,
  type NumberedLine,
  type SeedRequest,
} from "../../server";
import type { Context } from "../context";
import { type DbOptions, withStore } from "./operator";
import { DEFAULT_HORIZON, modelLine, parseClock, parseHorizon } from "./restate-options";

export interface DemoCommandOptions extends DbOptions {
  seed: number;
  days: number;
  /** The day after the data; undefined: today (UTC) by ctx.now(). */
  end?: string | undefined;
  advertisers: number;
  campaigns: number;
  ads: number;
  keywords: number;
  activity: number;
  ndjson?: string | undefined;
  restateSeed?: number | undefined;
  restateHorizon?: string | undefined;
  restateDeletions?: number | undefined;
  clock?: string | undefined;
}

/** Lines are written in batches of about this many characters: one write per line would cost a system call each. */
const BATCH_CHARS = 1 << 16;

async function writeNdjson(ctx: Context, file: string, facts: Iterable<LoadLine>): Promise<void> {
  // SIGINT/SIGTERM: exit 130, and a file is left as it was (its temporary file removed).
  let interrupted = false;
  const stopListening = ctx.onSignal(() => {
    interrupted = true;
  });
  try {
    const sink = await openOutput(ctx, file);
    const stopped = () =>
      new InterruptedError(sink.atomic === false ? "interrupted" : `interrupted; ${file} was left as it was`);
    try {
      let batch = "";
      for (const line of facts) {
        batch += `${formatLoadLine(line)}\n`;
        if (batch.length > BATCH_CHARS) {
          await writeChunk(sink.stream, batch);
          batch = "";
          if (interrupted) throw stopped();
        }
      }
      await writeChunk(sink.stream, batch);
      if (interrupted) throw stopped();
      await sink.commit();
    } catch (error) {
      const failed = outputError(error, sink);
      await sink.abort();
      throw failed ?? error;
    }
  } finally {
    stopListening();
  }
}

function* numbered(facts: Iterable<LoadLine>): Generator<NumberedLine[]> {
  let at = 0;
  let batch: NumberedLine[] = [];
  for (const line of facts) {
    at += 1;
    batch.push({ line, at });
    if (batch.length >= FACT_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** --end as epoch seconds (midnight UTC); without it, today's midnight UTC, so the data ends with yesterday. */
function endOf(ctx: Context, text: string | undefined): number {
  if (text === undefined) return dayOfInstant(ctx.now()) * SECONDS_PER_DAY;
  const end = BARE_DATE.test(text) ? parseInstant(text, "from") : undefined;
  if (!end) throw new UsageError(`--end: ${JSON.stringify(text)} is not a date (YYYY-MM-DD)`);
  return end.sec;
}

/** The model --restate-seed asks for, or undefined; its other flags without it are a mistake. */
function restateRequest(options: DemoCommandOptions, end: number): SeedRequest | undefined {
  if (options.restateSeed === undefined) {
    const flag = (
      [
        ["restateHorizon", "--restate-horizon"],
        ["restateDeletions", "--restate-deletions"],
        ["clock", "--clock"],
      ] as const
    ).find(([key]) => options[key] !== undefined)?.[1];
    if (flag) throw new UsageError(`${flag} goes with --restate-seed N`);
    return undefined;
  }
  if (options.ndjson !== undefined) {
    throw new UsageError("--restate-seed restates a database; --ndjson writes the data as generated", {
      hint: "leave out --ndjson, or seed the model after loading: adreport serve restate --seed N",
    });
  }
  return {
    seed: options.restateSeed,
    horizonDays: parseHorizon("--restate-horizon", options.restateHorizon ?? DEFAULT_HORIZON),
    clock: options.clock === undefined ? end : parseClock("--clock", options.clock),
    deletions: options.restateDeletions,
  };
}

export async function runDemo(ctx: Context, options: DemoCommandOptions): Promise<void> {
  const end = { sec: endOf(ctx, options.end) };
  const restate = restateRequest(options, end.sec);
  const facts = demoFacts({
    seed: options.seed,
    days: options.days,
    end: end.sec,
    advertisers: options.advertisers,
    campaignsPerAdvertiser: options.campaigns,
    adsPerCampaign: options.ads,
    keywordsPerAd: options.keywords,
    activity: options.activity,
  });
  if (options.ndjson !== undefined) {
    await writeNdjson(ctx, options.ndjson, facts);
    return;
  }
  await withStore(ctx, options.db, true, async (store) => {
    const written = await store.writeFacts(numbered(facts));
    const count = written.adHours + written.keywordHours;
    const first = formatDateTime(end.sec - options.days * SECONDS_PER_DAY);
    ctx.io.err.write(
      `adreport serve: demo data in ${databaseLabel(options.db)}: ${count} hourly rows from ${first} to ${formatDateTime(end.sec - SECONDS_PER_HOUR)}\n`,
    );
    if (restate === undefined) return;
    const move = await store.restate(restate);
    ctx.io.err.write(`adreport serve: ${modelLine(move.status)}\n`);
  });
}
