/** Option parsers of `serve` only. */
import { InvalidArgumentError } from "commander";

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
