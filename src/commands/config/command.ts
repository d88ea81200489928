import type { Command } from "commander";
import { UsageError } from "../../core/errors";
import type { Context } from "../context";

export function registerConfig(program: Command, _ctx: Context): void {
  program
    .command("config")
    .description("(not yet available)")
    .action(() => {
      throw new UsageError("'adreport config' is not available yet");
    });
}
