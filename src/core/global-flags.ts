/**
 * The flags every command takes that decide how the run is watched (`--log-format`, `--metrics-file`),
 * read from the command line before commander parses it: the first lines (a refused flag too) are said
 * in the format asked for. Commander parses them again (cli/program.ts) and refuses a bad value.
 */

/** The value of `--NAME VALUE` or `--NAME=VALUE` on a command line, before any `--`; the last one given. */
export function globalFlag(argv: readonly string[], name: "--log-format" | "--metrics-file"): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i] as string;
    if (word === "--") break;
    if (word === name) value = argv[i + 1];
    else if (word.startsWith(`${name}=`)) value = word.slice(name.length + 1);
  }
  return value;
}

/** The command a line runs: its first word that is no flag nor the value of one of the flags above. */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i] as string;
    if (word === "--log-format" || word === "--metrics-file") i += 1;
    else if (!word.startsWith("-")) return word;
  }
  return undefined;
}
