/**
 * What the completion scripts for bash and zsh (completion-bash.ts) and fish (completion-fish.ts) share:
 * the words of first arguments, from commander's choices or completion-words.ts, and the shell command
 * that lists profile names (asked of `adreport keys list --format ndjson` when completing).
 */
import { allNodes, type CommandNode } from "./command-tree";
import { firstArgumentWords, type Words } from "./completion-words";

export const PROFILES_COMMAND = `adreport keys list --format ndjson 2>/dev/null | sed -n 's/.*"profile":"\\([^"]*\\)".*/\\1/p'`;

function topLevel(root: CommandNode): string[] {
  return root.children.map((c) => c.path.at(-1) as string).filter((name) => name !== "help");
}

/** The first argument's words of each command: commander's choices, else completion-words.ts. */
export function firstArguments(root: CommandNode): Map<string, Words> {
  const extra = firstArgumentWords(topLevel(root));
  const result = new Map<string, Words>();
  for (const node of allNodes(root)) {
    const words = node.argumentChoices ?? extra[node.path.join(" ")];
    if (words) result.set(node.path.join(" "), words);
  }
  return result;
}
