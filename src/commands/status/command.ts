/** `adreport status [JOB...]`: each incremental job's freshness, measured on its days, and alerts by exit code. */
import type { Command } from "@commander-js/extra-typings";
import type { Context } from "../context";
import { declareStatus } from "./flags";

export function registerStatus(program: Command, ctx: Context): void {
  declareStatus(program).action(async (jobs, options) => (await import("./run")).runStatus(ctx, jobs, options));
}
