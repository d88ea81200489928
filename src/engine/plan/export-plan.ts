/**
 * An export into stdout or one file planned (a device or a named pipe too): the request in the zone of the
 * settings, the file's name with its days, the format and the shaping of the rows. What such a run refuses
 * before any request is refused here.
 */
import type { ResolvedSettings } from "../../config/resolve";
import { requireApiKey } from "../../config/resolve";
import { formatDateTime } from "../../core/calendar";
import { commonPlan, formatOptionsOf, type PlanPlace, warningsOf } from "./common";
import { planComparedPeriod } from "./compare";
import { folderRefusal } from "./output-folder";
import { chooseOutputFormat } from "./output-format";
import { fillPath, type OutputSpec } from "./output-spec";
import { checkPictureRequest } from "./picture-options";
import type { ExportPlan } from "./plan";
import { zoneOf } from "./report-zone";
import { planRequest } from "./request";
import { planShape } from "./shape";
import { requestWarnings } from "./warnings";
import type { ReportWords } from "./words";

/** `keepCounters`: rows keep the counters of their ratios, for an output that sums them later (accounts). */
export async function planExport(
  place: PlanPlace,
  words: ReportWords,
  settings: ResolvedSettings,
  output: Extract<OutputSpec, { kind: "stdout" | "file" }>,
  keepCounters = false,
): Promise<ExportPlan> {
  const { now, io, look } = place;
  const request = planRequest(words, now, settings["page-size"].value, zoneOf(settings));
  const compare = words.compare && {
    mode: words.compare,
    period: planComparedPeriod(request, words.compare, words.split),
  };
  const path = output.kind === "file" ? fillPath(output.template, request) : undefined;
  await look.check(path);
  const problem = path === undefined ? undefined : await look.folder(path);
  if (problem !== undefined && words.dryRun !== true) throw folderRefusal(problem);
  const format = chooseOutputFormat(words, settings, path, io.outIsTTY, await look.isStream(path));
  const shape = planShape(words, request, format.entry.name, keepCounters);
  checkPictureRequest(format.entry.name, request);
  const apiKey = requireApiKey(settings);
  const warnings = warningsOf(place);
  for (const warning of [...requestWarnings(words, request.request), ...format.warnings]) warnings.warn(warning);
  return {
    kind: "export",
    ...commonPlan(words, { now, settings, apiKey, request, paceFolder: place.paceFolder }),
    output,
    path,
    write: {
      format,
      options: {
        ...formatOptionsOf(io, words, { settings, format, path, request, now }),
        // The instants the service counts (a bare date's `to` is its last second), as A1 writes them.
        range: { from: formatDateTime(request.range.from), to: formatDateTime(request.range.to) },
      },
    },
    shape,
    compare: compare || undefined,
    record: words.record,
    folder: problem,
    warnings: warnings.list,
  };
}
