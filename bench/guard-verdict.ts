/** The guard's figure lines: a value against its goal, ok or short, and whether it is short beyond its noise margin. */

export interface Check {
  name: string;
  /** NaN when the figure could not be measured: always short beyond its margin. */
  value: number;
  unit: "x" | "ms" | "MB" | "k rows/s";
  goal: number;
  direction: "<=" | ">=";
  /** Run-to-run spread measured on this machine, as a fraction of the goal (bench/README.md). */
  margin: number;
  note?: string;
  /**
   * The best any implementation could do here, measured in the same run (the paging figure: every page
   * as cheap as a bare route answering its bytes from memory). A figure whose floor is itself past the
   * goal beyond the margin cannot meet it on this machine: it is printed short, and fails nothing (its
   * companion figure against the floor does).
   */
  floor?: number;
}

export type Verdict = "ok" | "short" | "short, within noise" | "short, as is its floor";

export function verdictOf(check: Check): Verdict {
  const { value, goal, direction, margin } = check;
  if (Number.isNaN(value)) return "short";
  if (direction === "<=" ? value <= goal : value >= goal) return "ok";
  const past = (v: number) => (direction === "<=" ? v > goal * (1 + margin) : v < goal * (1 - margin));
  if (!past(value)) return "short, within noise";
  return check.floor !== undefined && past(check.floor) ? "short, as is its floor" : "short";
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
