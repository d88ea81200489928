// An esbuild plugin: commander requires node:child_process when it loads, for subcommands that are separate
// executables, which adreport has none of; loading it (with net and dgram) was a tenth of the time of
// `adreport --help`. Here commander requires it on its first spawn instead.
import { readFileSync } from "node:fs";

const EAGER = "const childProcess = require('node:child_process');";
const LAZY = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";

export const lazyChildProcess = {
  name: "lazy-child-process",
  setup(build) {
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, ({ path }) => {
      const source = readFileSync(path, "utf8");
      // A commander that changed this line fails the build rather than loading child_process again.
      if (!source.includes(EAGER)) throw new Error(`${path}: commander no longer has \`${EAGER}\``);
      return { contents: source.replace(EAGER, LAZY), loader: "js" };
    });
  },
};
