/** `adreport verify JOB`: a job's output against its ledger (and the service), and mending what differs. */
import type { Command } from "@commander-js/extra-typings";
import type { Context } from "../context";
import { declareVerify } from "./flags";

export function registerVerify(program: Command, ctx: Context): void {
  declareVerify(program).action(async (job, options) => (await import("./run")).runVerify(ctx, job, options));
}
