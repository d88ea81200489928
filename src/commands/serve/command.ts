import type { Command } from "commander";
import { UsageError } from "../../core/errors";
import type { Context } from "../context";

export function registerServe(program: Command, _ctx: Context): void {
  program
    .command("serve")
    .description("run a local instance of the reporting service (not yet available)")
    .action(() => {
      throw new UsageError("'adreport serve' is not available yet");
    });
}
