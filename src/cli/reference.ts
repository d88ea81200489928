/**
 * The command reference in docs/cli.md, made from the commander definitions (each command's own --help,
 * examples included), so it is never written twice. `npm run docs` writes it; a test checks it is current.
 */
import { PassThrough } from "node:stream";
import type { Command } from "@commander-js/extra-typings";
import type { Context } from "../commands/context";
import { allNodes, commandTree } from "./command-tree";
import { buildProgram } from "./program";

/** The program as the generated documents show it: no terminal, 100 columns, an empty environment. */
export function documentedProgram(version: string, out = new PassThrough()): Promise<Command> {
  const ctx: Context = {
    io: {
      in: new PassThrough(),
      out,
      err: out,
      inIsTTY: false,
      outIsTTY: false,
      errIsTTY: false,
      color: false,
      outColor: false,
      columns: 100,
      errColumns: 0,
    },
    env: {},
    cwd: "/",
    version,
    now: () => new Date(0),
    sqliteAddon: () => undefined,
    onSignal: () => () => undefined,
  };
  return buildProgram(ctx);
}

export async function referenceMarkdown(version: string): Promise<string> {
  const out = new PassThrough();
  let captured = "";
  out.on("data", (chunk: Buffer) => {
    captured += chunk.toString();
  });
  const sections = allNodes(commandTree(await documentedProgram(version, out))).map((node) => {
    captured = "";
    node.command.outputHelp();
    const title = ["adreport", ...node.path].join(" ");
    return `## ${title}\n\n\`\`\`text\n${captured.trimEnd()}\n\`\`\`\n`;
  });
  return `# adreport command reference

Generated from the program's own definitions by \`npm run docs\`; do not edit by hand.

${sections.join("\n")}`;
}
