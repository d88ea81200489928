/** The commander tree as plain data, for shell completion and the generated reference. */
import type { CommandUnknownOpts } from "@commander-js/extra-typings";

export interface OptionNode {
  flags: string[];
  takesValue: boolean;
  choices: readonly string[] | undefined;
  description: string;
}

export interface CommandNode {
  /** Words after `adreport`, e.g. ["serve", "key", "issue"]. */
  path: string[];
  description: string;
  command: CommandUnknownOpts;
  options: OptionNode[];
  /** Choices of the first argument, if it has any (e.g. `keys request <type>`). */
  argumentChoices: readonly string[] | undefined;
  /** The subcommand run when none is named (`serve` runs `serve start`). */
  defaultChild: string | undefined;
  children: CommandNode[];
}

export function commandTree(command: CommandUnknownOpts, path: string[] = []): CommandNode {
  const visible = command.commands.filter((c) => !(c as CommandUnknownOpts & { _hidden?: boolean })._hidden);
  return {
    path,
    description: command.description(),
    command,
    options: command.options
      .filter((o) => !o.hidden)
      .map((o) => ({
        flags: [o.short, o.long].filter((f): f is string => f !== undefined),
        takesValue: o.required || o.optional,
        choices: o.argChoices,
        description: o.description,
      })),
    argumentChoices: command.registeredArguments[0]?.argChoices,
    // commander keeps the default subcommand's name in a field of its own.
    defaultChild: (command as CommandUnknownOpts & { _defaultCommandName?: string })._defaultCommandName ?? undefined,
    children: visible.map((c) => commandTree(c, [...path, c.name()])),
  };
}

/** The flags a user can type at a node: its own, and those of its default subcommand. */
export function flagsAt(node: CommandNode): OptionNode[] {
  const fallback = node.children.find((c) => c.path.at(-1) === node.defaultChild);
  return [...node.options, ...(fallback?.options ?? [])];
}

export function allNodes(node: CommandNode): CommandNode[] {
  return [node, ...node.children.flatMap(allNodes)];
}
