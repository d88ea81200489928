import type { Command } from "commander";
import { UsageError } from "../../core/errors";
import type { Context } from "../context";

export function registerReport(program: Command, _ctx: Context): void {
  program
    .command("report")
    .description("pull a report and export it (not yet available)")
    .action(() => {
      throw new UsageError("'adreport report' is not available yet");
    });
}
