/** What every report plan holds whatever its output, and how its rows are written: made in one place. */
import type { ResolvedSettings } from "../../config/resolve";
import type { CompareMode } from "../../engine/plan/compare-modes";
import type { OutputFormat } from "../../engine/plan/output-format";
import { pictureOptions } from "../../engine/plan/picture-options";
import type { CommonPlan } from "../../engine/plan/plan";
import { type RequestPlan, type RequestWords, requestWordsOf } from "../../engine/plan/request";
import type { FormatOptions } from "../../format/formatter";
import type { Context } from "../context";

export function commonPlan(
  flags: RequestWords & { quiet?: boolean | undefined; verbose?: boolean | undefined },
  place: { now: Date; settings: ResolvedSettings; apiKey: string; request: RequestPlan; paceFolder: string },
): CommonPlan {
  const { now, settings, apiKey, request, paceFolder } = place;
  return {
    now,
    settings,
    apiKey,
    words: requestWordsOf(flags),
    request,
    paging: { pageSize: settings["page-size"].value, concurrency: settings.concurrency.value },
    maxTime: settings["max-time"].value,
    paceFolder,
    quiet: flags.quiet === true,
    verbose: flags.verbose === true,
  };
}

/** The options of a text or picture format; `path` undefined is stdout (colour where it is a terminal). */
export function formatOptionsOf(
  ctx: Pick<Context, "io">,
  flags: { bom?: boolean | undefined; compare?: CompareMode | undefined },
  place: {
    settings: ResolvedSettings;
    format: OutputFormat;
    path: string | undefined;
    request: RequestPlan;
    now: Date;
  },
): FormatOptions {
  const { settings, format, path, request, now } = place;
  return {
    delimiter: settings.delimiter.value,
    bom: flags.bom === true,
    spreadsheet: format.spreadsheet,
    color: path === undefined && ctx.io.outColor,
    ...pictureOptions({ now: () => now, io: ctx.io }, request, flags.compare),
  };
}
