/**
 * `adreport serve load`: NDJSON files in the load format, or (`--from-export FILE`) an NDJSON export of
 * `adreport report` converted into that format in a private temporary folder and loaded by the same loader.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUCKET_WORDS } from "../../core/calendar";
import { InterruptedError, UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import { convertExport, describeSpan, type ExportGranularity, ExportShapeError } from "../../server";
import type { Context } from "../context";
import { runLoad } from "./load";
import type { DbOptions } from "./operator";

export interface LoadOptions extends DbOptions {
  fromExport?: string | undefined;
  advertiser?: string | undefined;
  granularity?: string | undefined;
}

const DEFAULT_ADVERTISER = "Imported";
const GRANULARITIES: readonly string[] = ["hour", "day"];

/** `for advertiser "Imported" (--advertiser to change)`, or the profiles of an export over several accounts. */
function forWhom(profiles: readonly string[], advertiser: string, given: boolean): string {
  if (profiles.length > 0 && !given) {
    const named = profiles.slice(0, 5).map((p) => printable(JSON.stringify(p)));
    const more = profiles.length > 5 ? ` and ${profiles.length - 5} more` : "";
    return `for advertiser${profiles.length > 1 ? "s" : ""} ${named.join(", ")}${more} (each profile's rows)`;
  }
  return `for advertiser ${JSON.stringify(advertiser)}${given ? "" : " (--advertiser to change)"}`;
}

export async function runLoadVerb(ctx: Context, files: string[], options: LoadOptions): Promise<void> {
  if (options.fromExport === undefined) {
    if (options.advertiser !== undefined) throw new UsageError("--advertiser goes with --from-export");
    if (options.granularity !== undefined) throw new UsageError("--granularity goes with --from-export");
    if (files.length === 0) {
      throw new UsageError("nothing to load", { hint: "name NDJSON files, or an export with --from-export FILE" });
    }
    return runLoad(ctx, files, options);
  }
  if (files.length > 0) throw new UsageError("give NDJSON files or --from-export, not both");
  const granularity = options.granularity;
  if (granularity !== undefined && !GRANULARITIES.includes(granularity)) {
    throw new UsageError(`--granularity: ${JSON.stringify(granularity.slice(0, 40))} is not hour or day`);
  }
  const advertiser = options.advertiser ?? DEFAULT_ADVERTISER;
  if (advertiser.length === 0 || advertiser.length > 1000) {
    throw new UsageError("--advertiser: a name of 1 to 1000 characters");
  }
  const exportPath = resolve(ctx.cwd, options.fromExport);
  // SIGINT/SIGTERM while converting: exit 130, the temporary load file removed (the load has its own handler).
  const stop = new AbortController();
  const stopListening = ctx.onSignal(() =>
    stop.abort(new InterruptedError(`interrupted; nothing of ${options.fromExport} was loaded`)),
  );
  const folder = mkdtempSync(join(tmpdir(), "adreport-load-"));
  try {
    const loadPath = join(folder, "from-export.ndjson");
    let conversion: Awaited<ReturnType<typeof convertExport>>;
    try {
      conversion = await convertExport(exportPath, loadPath, {
        advertiser,
        advertiserGiven: options.advertiser !== undefined,
        granularity: granularity as ExportGranularity | undefined,
        stop: stop.signal,
      });
    } catch (error) {
      if (error instanceof ExportShapeError) {
        throw new UsageError(`--from-export: ${options.fromExport}: ${error.message}`, {
          hint: /Monday|1st|cannot tell/.test(error.message)
            ? "if the export is daily after all, say so with --granularity day"
            : undefined,
        });
      }
      throw error;
    } finally {
      stopListening();
    }
    const notes = [
      `${conversion.rows} ${conversion.entity},date rows (${describeSpan(conversion)}), ${BUCKET_WORDS[conversion.granularity]}${conversion.granularityGiven ? " (--granularity)" : ""}, ${forWhom(conversion.profiles, advertiser, options.advertiser !== undefined)}`,
    ];
    if (conversion.granularity === "day") {
      notes.push(
        "daily rows are loaded at the first hour of their day (00:00 UTC, or of the export's --tz): hourly reports of them are not the real hours",
      );
    }
    if (conversion.missingMetrics.length > 0) {
      notes.push(`the export has no ${conversion.missingMetrics.join(", ")}: loaded as 0`);
    }
    if (conversion.entity === "ad")
      notes.push("an ad export has no campaign names: campaigns are named `campaign <id>`");
    if (conversion.entity === "campaign") notes.push("each campaign is loaded as one ad of the same id and name");
    for (const note of notes) ctx.io.err.write(`adreport serve: ${options.fromExport}: ${note}\n`);
    await runLoad(ctx, [loadPath], options, () => options.fromExport as string);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
