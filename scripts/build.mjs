// Bundles the CLI into one CommonJS file. Modules reached through `await import()` stay lazy inside it,
// so start-up evaluates only commander and the flag definitions.
import { readFileSync } from "node:fs";
import { build } from "esbuild";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

await build({
  entryPoints: ["src/cli/entry.ts"],
  outfile: "dist/adreport.cjs",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  // Native addon: loaded from node_modules (or, in the single binary, from an asset).
  external: ["better-sqlite3"],
  define: { ADREPORT_VERSION: JSON.stringify(version) },
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
});
