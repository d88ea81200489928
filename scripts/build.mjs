// Bundles the CLI with esbuild as ES modules split at every `await import()`: start-up loads only the
// entry (commander and the flag definitions), and each command loads just the chunks it needs. Measured
// here against one CommonJS file: `--version` 0.07 s and 45 MB against 0.12 s and 60 MB, since the single
// file made Node parse the server, the HTTP client and zod on every start.
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { esmOpenTelemetry } from "./esm-opentelemetry.mjs";
import { inlineAssets } from "./inline-assets.mjs";
import { lazyChildProcess } from "./lazy-child-process.mjs";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

// Only this build's own outputs: dist/ also holds the single-file binary of `npm run package`.
rmSync("dist/chunks", { recursive: true, force: true });
rmSync("dist/adreport.mjs", { force: true });
rmSync("dist/adreport.mjs.map", { force: true });
rmSync("dist/front.cjs", { force: true });
rmSync("dist/front.cjs.map", { force: true });
await build({
  entryPoints: { adreport: "src/cli/entry.ts" },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Native addons: loaded from node_modules (better-sqlite3's, in the single binary, from an asset). DuckDB's
  // JavaScript client is bundled into the chunk a duckdb: target loads: imported as its 200 CommonJS files
  // it took 1.1-1.5 s a run here, bundled 0.25-0.5 s (bench/README.md); only its native bindings stay out.
  external: ["better-sqlite3", "@duckdb/node-bindings"],
  define: { ADREPORT_VERSION: JSON.stringify(version), ...inlineAssets() },
  // Bundled CommonJS packages call require() for Node's own modules.
  banner: {
    js: 'import { createRequire as __adreportRequire } from "node:module"; const require = __adreportRequire(import.meta.url);',
  },
  sourcemap: "linked",
  // Less for Node to read and parse on every start (about 5 ms of `report --help` here); names are kept, so
  // a stack trace still reads, and the linked source maps (`node --enable-source-maps`) give its lines.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  plugins: [lazyChildProcess, esmOpenTelemetry],
  logLevel: "warning",
});

// The front (src/cli/front.ts): the flag definitions and commander again, as one CommonJS file, for the
// command lines that end in help or a refused flag. Every dynamic import in it but those of the flag
// definitions (cli/command-list.ts) loads cli/hand-over-import.ts instead, which hands the line over.
const handOverImports = {
  name: "hand-over-imports",
  setup(front) {
    front.onResolve({ filter: /.*/ }, ({ kind, importer }) => {
      if (kind !== "dynamic-import" || importer.endsWith(join("cli", "command-list.ts"))) return undefined;
      return { path: resolve("src/cli/hand-over-import.ts") };
    });
  },
};
await build({
  entryPoints: { front: "src/cli/front.ts" },
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  external: ["better-sqlite3", "@duckdb/node-bindings"],
  define: { ADREPORT_VERSION: JSON.stringify(version) },
  sourcemap: "linked",
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  plugins: [lazyChildProcess, handOverImports],
  logLevel: "warning",
});
