/** The guard's figure lines: a value against its goal, ok or short, and whether it is short beyond its noise margin. */

export interface Check {
  name: string;
  /** NaN when the figure could not be measured: always short beyond its margin. */
  value: number;
  unit: "x" | "ms" | "MB";
  goal: number;
  direction: "<=" | ">=";
  /** Run-to-run spread measured on this machine, as a fraction of the goal (bench/README.md). */
  margin: number;
  note?: string;
}

export type Verdict = "ok" | "short" | "short, within noise";

export function verdictOf(check: Check): Verdict {
  const { value, goal, direction, margin } = check;
  if (Number.isNaN(value)) return "short";
  if (direction === "<=" ? value <= goal : value >= goal) return "ok";
  const beyond = direction === "<=" ? value > goal * (1 + margin) : value < goal * (1 - margin);
  return beyond ? "short" : "short, within noise";
}

function shown(value: number, unit: Check["unit"]): string {
  if (Number.isNaN(value)) return "-";
  const digits = unit === "x" ? (value >= 100 ? 0 : 2) : 0;
  return `${value.toFixed(digits)}${unit === "x" ? "x" : ` ${unit}`}`;
}

/** `name  value  goal <= G (±margin)  verdict  note` */
export function lineOf(check: Check): string {
  const goal = `goal ${check.direction} ${shown(check.goal, check.unit)} ±${Math.round(check.margin * 100)}%`;
  const note = check.note ? `  ${check.note}` : "";
  return `${check.name.padEnd(26)} ${shown(check.value, check.unit).padStart(8)}   ${goal.padEnd(22)} ${verdictOf(check)}${note}`;
}
