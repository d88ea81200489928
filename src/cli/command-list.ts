/**
 * The top-level commands, in the order `adreport --help` lists them (issue 23). A start defines in full
 * only the commands its words name: the others are placeholders with the name, the line `--help` shows
 * and nothing else, so `adreport --help` or a refused `report` flag neither loads nor builds the flags of
 * `serve`. test/cli/lazy-commands.test.ts checks the placeholders against the full definitions.
 */
import { type Command, Help } from "@commander-js/extra-typings";
import type { Context } from "../commands/context";

type Register = (program: Command, ctx: Context) => void;

interface TopCommand {
  name: string;
  /** What the Commands list of `adreport --help` shows after the name. */
  term: string;
  description: string;
  load(): Promise<Register>;
}

export const TOP_COMMANDS: readonly TopCommand[] = [
  {
    name: "report",
    term: " [options]",
    description: "pull a report, every page of it, and export it as a table, CSV, TSV, JSON, NDJSON or Parquet",
    load: async () => (await import("../commands/report/command")).registerReport,
  },
  {
    name: "keys",
    term: "",
    description: "manage API keys in profiles (one per advertiser account), test them, ask the operator for changes",
    load: async () => (await import("../commands/keys/command")).registerKeys,
  },
  {
    name: "config",
    term: "",
    description: "read and change settings (adreport help settings lists them, with their defaults)",
    load: async () => (await import("../commands/config/command")).registerConfig,
  },
  {
    name: "serve",
    term: "",
    description:
      "run an instance of the reporting service from a SQLite file or PostgreSQL, and manage its data and keys",
    // serve/command.ts declares its flags with commander's own (untyped) Command.
    load: async () => (await import("../commands/serve/command")).registerServe,
  },
  {
    name: "state",
    term: "",
    description: "the jobs of `report --incremental`: list them, show one, reset one",
    load: async () => (await import("../commands/state/command")).registerState,
  },
  {
    name: "status",
    term: " [options] [jobs...]",
    description:
      "is yesterday's data there, and is it final? each job's newest day and newest settled day, its last run and lock; --max-lag alerts by exit code",
    load: async () => (await import("../commands/status/command")).registerStatus,
  },
  {
    name: "verify",
    term: " [options] [job]",
    description:
      "check that a job's day files or table still hold what its ledger says it wrote; --repair writes the days that differ again",
    load: async () => (await import("../commands/verify/command")).registerVerify,
  },
  {
    name: "completion",
    term: " <shell>",
    description: "print a shell completion script (bash, zsh or fish)",
    load: async () => (await import("./completion-command")).registerCompletion,
  },
];

/** Commands that read the whole tree: the completion scripts, and `help` (whose words may name any command). */
const WHOLE_TREE = new Set(["completion", "help"]);

/**
 * Registers every top-level command on the program: in full those `words` name (all of them when `words`
 * is undefined, or names `help` or `completion`), the others as placeholders.
 */
export async function registerCommands(program: Command, ctx: Context, words?: readonly string[]): Promise<void> {
  const whole = words === undefined || words.some((word) => WHOLE_TREE.has(word));
  const registers = await Promise.all(
    TOP_COMMANDS.map((top) => (whole || words?.includes(top.name) ? top.load() : undefined)),
  );
  const placeholders = new Map<string, string>();
  for (const [i, top] of TOP_COMMANDS.entries()) {
    const register = registers[i];
    if (register) register(program, ctx);
    else {
      program.command(top.name).description(top.description);
      placeholders.set(top.name, top.term);
    }
  }
  if (placeholders.size === 0) return;
  program.configureHelp({
    subcommandTerm(cmd) {
      const term = cmd.parent === program ? placeholders.get(cmd.name()) : undefined;
      return term === undefined ? Help.prototype.subcommandTerm.call(this, cmd) : `${cmd.name()}${term}`;
    },
  });
}
