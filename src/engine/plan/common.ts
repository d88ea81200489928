/** What every report plan holds whatever its output, and how its rows are written: made in one place. */
import type { ResolvedSettings } from "../../config/resolve";
import type { FormatOptions } from "../../format/formatter";
import type { IOStreams } from "../../io/iostreams";
import type { CompareMode } from "./compare-modes";
import type { OutputLook } from "./look";
import type { OutputFormat } from "./output-format";
import { pictureOptions } from "./picture-options";
import type { CommonPlan } from "./plan";
import { type RequestPlan, type RequestWords, requestWordsOf } from "./request";

/** Where a plan is made: what planning reads besides the words and the settings. */
export interface PlanPlace {
  /** The folder relative paths are in. */
  readonly cwd: string;
  /** The streams the data goes to: a terminal's width and colour, a table or CSV on stdout. */
  readonly io: IOStreams;
  /** The one reading of the clock every date of the plan comes from. */
  readonly now: Date;
  /** The folder of the jobs' states, and of the pace ledgers. */
  readonly stateFolder: string;
  readonly paceFolder: string;
  readonly look: OutputLook;
  /** Each warning as planning finds it (the plan holds them too): said before a refusal that follows. */
  warn(text: string): void;
}

/** Warnings said through `place` and kept for the plan. */
export function warningsOf(place: Pick<PlanPlace, "warn">): { list: string[]; warn(text: string): void } {
  const list: string[] = [];
  return {
    list,
    warn(text) {
      list.push(text);
      place.warn(text);
    },
  };
}

export function commonPlan(
  words: RequestWords & { quiet?: boolean | undefined; verbose?: boolean | undefined },
  place: { now: Date; settings: ResolvedSettings; apiKey: string; request: RequestPlan; paceFolder: string },
): Omit<CommonPlan, "warnings"> {
  const { now, settings, apiKey, request, paceFolder } = place;
  return {
    now,
    settings,
    apiKey,
    words: requestWordsOf(words),
    request,
    paging: { pageSize: settings["page-size"].value, concurrency: settings.concurrency.value },
    maxTime: settings["max-time"].value,
    paceFolder,
    quiet: words.quiet === true,
    verbose: words.verbose === true,
  };
}

/** The options of a text or picture format; `path` undefined is stdout (colour where it is a terminal). */
export function formatOptionsOf(
  io: IOStreams,
  words: { bom?: boolean | undefined; compare?: CompareMode | undefined },
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
    bom: words.bom === true,
    spreadsheet: format.spreadsheet,
    color: path === undefined && io.outColor,
    ...pictureOptions({ now: () => now, io }, request, words.compare),
  };
}
