import type { ReportRequest } from "../contract";
import type { DayTarget } from "./day-target";

export type TableChoice =
  | { kind: "sqlite"; path: string; table: string }
  | { kind: "postgres"; url: string; table: string };
export interface TableOptions {
  profile: string;
  request: ReportRequest;
  cwd: string;
  now: Date;
  sqliteAddon: object | undefined;
}
export async function openTableTarget(
  _choice: TableChoice,
  _options: TableOptions,
): Promise<DayTarget & { close(): Promise<void> }> {
  throw new Error("not yet");
}
