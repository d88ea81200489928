/** A described plan (engine/plan/description.ts) as `report --dry-run` shows it: lines for a person, JSON for a machine. */
import { printable } from "../../core/printable";
import type {
  AutoDescription,
  IncrementalDescription,
  OutputDescription,
  PlanDescription,
  Span,
} from "../../engine/dry-run/description";
import { folderRefusal } from "../../engine/plan/output-folder";

const span = (s: Span) => `${s.from}..${s.to}`;

function windowsText(windows: readonly Span[]): string {
  return `${windows.length} window${windows.length === 1 ? "" : "s"}: ${windows.map(span).join(", ")}`;
}

function outputText(output: OutputDescription, format: string | undefined): string {
  const as = format === undefined ? "" : ` (${format})`;
  if (output.kind === "stdout") return `standard output${as}`;
  if (output.kind === "file") return `${printable(output.path)}${as}`;
  return `${output.words}${as}`;
}

/** Where the range of an incremental run comes from. */
function rangeReason(inc: IncrementalDescription): string {
  if (inc.lastDay === undefined) return `; from --start ${inc.start}, a first run`;
  if (inc.auto) return `; the days after ${inc.lastDay}, the last day exported, and --lookback auto's days that moved`;
  return `; the days after ${inc.lastDay}, the last day exported, and --lookback ${inc.lookbackDays}d before them`;
}

function incrementalLines(inc: IncrementalDescription): string[] {
  const state = inc.stateExists ? `exists, last day ${inc.lastDay}` : "none yet: this is the job's first run";
  const lines = [`state:    ${printable(inc.stateFile)} (${state})`, `lock:     ${printable(inc.lockFile)}`];
  if (inc.auto) {
    lines.push(...autoLines(inc.auto));
  } else if (inc.stateExists && inc.nothing === undefined) {
    lines.push(
      inc.again.length === 0
        ? "again:    no day the state records"
        : `again:    ${inc.again.length} day${inc.again.length === 1 ? "" : "s"} the state records, compared and rewritten only when changed: ${inc.again.join(", ")}`,
    );
  }
  return lines;
}

function autoLines(auto: AutoDescription): string[] {
  const learned =
    auto.learnedHorizonDays === null
      ? "nothing learned yet"
      : `learned horizon ${auto.learnedHorizonDays} days, settled through ${auto.settledThrough}`;
  const lines = [`lookback: auto (${learned}); this run covers the last ${auto.horizonDays} days: ${auto.why}`];
  const checked = auto.checked;
  if (checked === undefined) {
    lines.push("checked:  no day the state records: the new days only");
  } else if (auto.mode === "check") {
    lines.push(
      `checked:  ${checked.from}..${checked.to} (${checked.days} days): their totals by ${auto.by} are asked first ` +
        `(${auto.pages.check} request${auto.pages.check === 1 ? "" : "s"}; a dry run asks nothing) and compared with the state; ` +
        "only the days whose totals or spread moved are fetched again, with the new days",
    );
  } else {
    lines.push(
      `checked:  ${checked.from}..${checked.to} (${checked.days} days): fetched whole with the new days ` +
        `(about ${auto.pages.full} request${auto.pages.full === 1 ? "" : "s"}, no more than their totals and the new days), compared and rewritten only when changed`,
    );
  }
  lines.push(`fallback: a service that does not answer the totals: --lookback ${auto.fallbackDays}d, with a warning`);
  return lines;
}

/** A folder the run refuses (exit 2, before any request), and what makes the plan runnable. */
function folderLine(folder: NonNullable<PlanDescription["folder"]>): string {
  const what = folder.problem === "no such folder" ? "is not there yet" : "is not a folder";
  const hint = folderRefusal(folder).hint;
  return `folder:   ${printable(folder.folder)} ${what}: a run refuses it before any request (${printable(hint ?? "")})`;
}

/** The plan, one `name: value` line each. */
export function planText(plan: PlanDescription): string {
  const inc = plan.incremental;
  const lines: string[] = [];
  if (plan.range === undefined) {
    lines.push(`range:    ${inc?.nothing ?? "nothing to do"}`);
  } else {
    const unused = plan.unusedZone && `; ${printable(plan.unusedZone.name)} (${plan.unusedZone.source}) is not used`;
    lines.push(`range:    ${span(plan.range)} (${plan.zone}${unused ?? ""}${inc ? rangeReason(inc) : ""})`);
    lines.push(`windows:  ${windowsText(plan.windows)}`);
  }
  if (plan.compared) lines.push(`compared: ${span(plan.compared.range)}, ${windowsText(plan.compared.windows)}`);
  lines.push(`output:   ${outputText(plan.output, plan.format)}`);
  if (plan.folder) lines.push(folderLine(plan.folder));
  if (plan.job !== undefined) lines.push(`job:      ${plan.job}`);
  if (inc) lines.push(...incrementalLines(inc));
  lines.push(
    plan.requests === 0
      ? "requests: none"
      : `requests: at least ${plan.requests} (one per window${plan.compared ? ", of both periods" : ""}${inc?.auto?.mode === "check" ? ", and the totals" : ""})`,
  );
  return lines.map((line) => `${line}\n`).join("");
}

function outputObject(output: OutputDescription): object {
  return output.kind === "stdout"
    ? { kind: "stdout" }
    : output.kind === "file"
      ? { kind: "file", path: output.path }
      : output.json;
}

/** The plan as `--summary json` gives it: snake_case keys, as the summaries of runs. */
export function planObject(plan: PlanDescription): Record<string, unknown> {
  const inc = plan.incremental;
  const windows = (list: readonly Span[]) => list.map((w) => ({ from: w.from, to: w.to }));
  const refused = plan.folder && folderRefusal(plan.folder);
  return {
    outcome: refused ? "refused" : plan.range === undefined ? "nothing to do" : "planned",
    ...(refused ? { error: refused.message } : {}),
    job: plan.job ?? null,
    from: plan.range?.from ?? null,
    to: plan.range?.to ?? null,
    zone: plan.zone,
    windows: windows(plan.windows),
    ...(plan.compared
      ? {
          compared: {
            from: plan.compared.range.from,
            to: plan.compared.range.to,
            windows: windows(plan.compared.windows),
          },
        }
      : {}),
    output: outputObject(plan.output),
    format: plan.format ?? null,
    ...(inc
      ? {
          incremental: {
            state_file: inc.stateFile,
            lock_file: inc.lockFile,
            state_exists: inc.stateExists,
            last_day: inc.lastDay ?? null,
            lookback_days: inc.lookbackDays,
            start: inc.start ?? null,
            again_days: inc.auto ? [] : inc.again,
            ...(inc.auto ? { lookback: "auto", auto: autoObject(inc.auto) } : {}),
            nothing_to_do: inc.nothing ?? null,
          },
        }
      : {}),
    requests_at_least: plan.requests,
  };
}

function autoObject(auto: AutoDescription): Record<string, unknown> {
  return {
    learned_horizon_days: auto.learnedHorizonDays,
    settled_through: auto.settledThrough ?? null,
    horizon_days: auto.horizonDays,
    deep: auto.deep,
    checked_from: auto.checked?.from ?? null,
    checked_to: auto.checked?.to ?? null,
    checked_days: auto.checked?.days ?? 0,
    mode: auto.mode,
    check_by: auto.by,
    check_requests: auto.mode === "check" ? auto.pages.check : 0,
    fallback_lookback_days: auto.fallbackDays,
  };
}
