/**
 * The option parsers of every command, for commander: a bad value is a usage error naming the flag's
 * rule.
 */
import { InvalidArgumentError } from "@commander-js/extra-typings";
import { UsageError } from "../../core/errors";
import { quote } from "../../core/quote";
import { didYouMean } from "../../core/suggest";
import { readWholeNumber } from "../../core/whole-number";

export function integerOption(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (text: string): number => {
    const value = readWholeNumber(text.trim());
    if (value === undefined || value < min || value > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    }
    return value;
  };
}

export function fractionOption(text: string): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new InvalidArgumentError("expected a number from 0 to 1.");
  }
  return value;
}

export function collect(value: string, previous: string[] | undefined): string[] {
  return [
    ...(previous ?? []),
    ...value
      .split(",")
      .map((v) => v.trim())
      .filter((v) => v !== ""),
  ];
}

/** A duration in seconds, fractions allowed (`0.5`), from `min` to `max`. */
export function secondsOption(min: number, max: number) {
  return (text: string): number => {
    const value = Number(text);
    if (text.trim() === "" || !Number.isFinite(value) || value < min || value > max) {
      throw new InvalidArgumentError(`expected seconds from ${min} to ${max}.`);
    }
    return value;
  };
}

/**
 * One of `names`, or our own one-line refusal naming them all (commander's speaks of the option's whole
 * definition: `option '-f, --format <format>' argument 'xlsx' is invalid`). Goes after `.choices()`, whose
 * list the help and the shell completion still show.
 */
export function nameOption<Name extends string>(what: string, names: readonly Name[]) {
  return (text: string): Name => {
    const found = names.find((name) => name === text);
    if (found !== undefined) return found;
    const near = didYouMean(text, names);
    throw new UsageError(
      `unknown ${what} ${quote(text)}${near ? ` (${near})` : ""}; the ${what}s are ${names.join(", ")}`,
    );
  };
}
