import type { Command } from "commander";
import { UsageError } from "../../core/errors";
import type { Context } from "../context";

export function registerKeys(program: Command, _ctx: Context): void {
  program
    .command("keys")
    .description("(not yet available)")
    .action(() => {
      throw new UsageError("'adreport keys' is not available yet");
    });
}
