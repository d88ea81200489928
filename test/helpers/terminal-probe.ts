// `tsx terminal-probe.ts`: whether isTerminal agrees with tty.isatty on this process's stdin, stdout and
// stderr, as `true,true,true` (test/unit/io/iostreams.test.ts runs it on pipes and on a pseudo-terminal).
import { isatty } from "node:tty";
import { isTerminal } from "../../src/io/iostreams";

console.log([0, 1, 2].map((fd) => `${isTerminal(fd) === isatty(fd)}:${isatty(fd)}`).join());
