/** `adreport completion bash|zsh|fish`: prints a completion script made from this program's own commands. */
import { Argument, type Command } from "@commander-js/extra-typings";
import type { Context } from "../commands/context";
import { commandTree } from "./command-tree";

export function registerCompletion(program: Command, ctx: Context): void {
  program
    .command("completion")
    .description("print a shell completion script (bash, zsh or fish)")
    .addArgument(new Argument("<shell>", "bash, zsh or fish").choices(["bash", "zsh", "fish"] as const))
    .addHelpText(
      "after",
      `
Examples:
  $ source <(adreport completion bash)               # in ~/.bashrc
  $ source <(adreport completion zsh)                # in ~/.zshrc
  $ adreport completion fish > ~/.config/fish/completions/adreport.fish`,
    )
    .action(async (shell) => {
      // The scripts' words come from the contract and the settings' rules (zod): loaded only here.
      const { bashCompletion, zshCompletion } = await import("./completion-bash");
      const { fishCompletion } = await import("./completion-fish");
      const tree = commandTree(program);
      const script =
        shell === "bash" ? bashCompletion(tree) : shell === "zsh" ? zshCompletion(tree) : fishCompletion(tree);
      ctx.io.out.write(script);
    });
}
