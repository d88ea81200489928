/**
 * "Did you mean" for an unknown option, among every long name a command takes. Commander suggests only
 * an option's last long name, so `--dim` found nothing near `--dims, --dimensions` (issue 35). Its own
 * words and error code are kept: `unknown option '--dim'` and `(Did you mean --dims?)` on the next line.
 */
import { Command, type CommandUnknownOpts, type Option } from "@commander-js/extra-typings";
import { nearestWords } from "../core/suggest";

/** Commander's own method, which it declares private. */
type WithUnknownOption = CommandUnknownOpts & {
  unknownOption(flag: string): void;
  _allowUnknownOption: boolean;
  _showSuggestionAfterError: boolean;
  _enablePositionalOptions: boolean;
};

/** Every long name of the options `command` takes, its parents' too (as commander looks for them). */
function longNames(command: CommandUnknownOpts): string[] {
  const names: string[] = [];
  for (let at: CommandUnknownOpts | null = command; at; at = at.parent) {
    for (const option of at.createHelp().visibleOptions(at) as Option[]) {
      for (const flag of [option.short, option.long]) if (flag?.startsWith("--")) names.push(flag.slice(2));
    }
    if ((at as WithUnknownOption)._enablePositionalOptions) break;
  }
  return names;
}

let installed = false;

/**
 * Gives every command the suggestion over all long names: once, on commander's own class, which this
 * bundle alone uses. Set on each command instead, it cost every start about 0.3 ms (a tenth of the
 * front's own work), where only a refused option needs it.
 */
export function suggestEveryLongName(): void {
  if (installed) return;
  installed = true;
  const prototype = Command.prototype as unknown as WithUnknownOption;
  const commanders = prototype.unknownOption;
  prototype.unknownOption = function (this: WithUnknownOption, flag: string) {
    if (this._allowUnknownOption || !this._showSuggestionAfterError || !flag.startsWith("--")) {
      return commanders.call(this, flag);
    }
    // `--dim=campaign` is the word `dim`.
    const name = flag.split("=")[0] ?? flag;
    const near = nearestWords(name.slice(2), longNames(this)).map((long) => `--${long}`);
    const suggestion =
      near.length === 0 ? "" : `\n(Did you mean ${near.length === 1 ? near[0] : `one of ${near.join(", ")}`}?)`;
    // The value is not shown: `--api-k=KEY` (a mistyped --api-key) would print the key.
    const shown = name === flag ? flag : `${name}=***`;
    this.error(`error: unknown option '${shown}'${suggestion}`, { code: "commander.unknownOption" });
  };
}
