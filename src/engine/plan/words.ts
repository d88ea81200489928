/**
 * The words a report is planned from, as given: `report`'s flags, or what a job's state says it was made
 * with. A plan is made from these, never from commander's object of flags (which holds a key, too).
 */
import type { FormatWords } from "./output-format";
import type { OutputWords } from "./output-spec";
import type { RequestWords } from "./request";
import type { ShapeWords } from "./shape";

export type ReportWords = RequestWords &
  ShapeWords &
  FormatWords &
  OutputWords & {
    tz?: string | undefined;
    lookback?: string | undefined;
    start?: string | undefined;
    stateFile?: string | undefined;
    record?: string | undefined;
    quiet?: boolean | undefined;
    verbose?: boolean | undefined;
    /** --dry-run: the plan is shown, not run (a missing folder is shown, then refused). */
    dryRun?: boolean | undefined;
  };
