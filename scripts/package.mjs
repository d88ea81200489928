// `npm run package`: a single-file executable with Node's own single executable applications (SEA):
// one CommonJS bundle, better-sqlite3's native addon as an asset, injected with postject into a copy of
// Node.js of the current LTS line (scripts/node-runtime.mjs: the release from the npm registry, and the
// addon compiled for it, both cached in .cache/). Writes dist/adreport-<platform>-<arch> and, beside it,
// THIRD-PARTY-NOTICES with Node.js's own licence added.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build } from "esbuild";
import { esmOpenTelemetry } from "./esm-opentelemetry.mjs";
import { inlineAssets } from "./inline-assets.mjs";
import { lazyChildProcess } from "./lazy-child-process.mjs";
import { reportBuildFailure } from "./node-gyp.mjs";
import { BINARY_LINE, nodeRelease, sqliteAddonFor } from "./node-runtime.mjs";
import { section } from "./third-party-notices.mjs";

const require = createRequire(import.meta.url);
const { version } = JSON.parse(readFileSync("package.json", "utf8"));
const work = join("dist", "sea");
const output = join("dist", `adreport-${process.platform}-${process.arch}`);

/**
 * postject's ELF library (LIEF) warns "Can't find string offset for section name '.note.100'" nine times on
 * every Linux node binary, and injects correctly all the same (nodejs/postject#83): those lines only, which
 * it prints through console.warn, are dropped; any other warning still shows.
 */
async function withoutLiefNoteWarnings(work) {
  const warn = console.warn;
  console.warn = (...args) => {
    if (!/^warning: Can't find string offset for section name '\.note[^']*'$/.test(args.join(" "))) warn(...args);
  };
  try {
    return await work();
  } finally {
    console.warn = warn;
  }
}

async function main() {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const release = nodeRelease(BINARY_LINE);

  await build({
    entryPoints: ["src/cli/sea.ts"],
    outfile: join(work, "adreport.cjs"),
    bundle: true,
    format: "cjs",
    platform: "node",
    target: `node${BINARY_LINE}`,
    // import.meta is ES modules' only: in this CommonJS bundle it is the file's URL from __filename (what
    // esbuild would otherwise leave empty, and warn about: the two uses sit behind the inlined assets).
    define: { ADREPORT_VERSION: JSON.stringify(version), "import.meta.url": "__adreportFileUrl", ...inlineAssets() },
    banner: { js: 'const __adreportFileUrl = require("node:url").pathToFileURL(__filename).href;' },
    legalComments: "none",
    plugins: [lazyChildProcess, esmOpenTelemetry],
    logLevel: "warning",
    // DuckDB's library is 70 MB: the binary leaves its native bindings out, and says so when -o duckdb: asks
    // for them (targets/duckdb/driver.ts: their require finds nothing in the binary).
    external: ["@duckdb/node-bindings"],
    // The whole bundle's source stays in memory with the binary's code cache; minified it takes 12 MB less
    // (RSS of `--version`), which a 128 MiB container running a long export needs.
    minify: true,
  });

  const addon = sqliteAddonFor(release);
  const config = join(work, "sea-config.json");
  writeFileSync(
    config,
    JSON.stringify({
      main: join(work, "adreport.cjs"),
      output: join(work, "sea-prep.blob"),
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      assets: { "better_sqlite3.node": addon },
    }),
  );
  // The blob must be made by the Node.js it is injected into. What it prints ("Wrote single executable
  // preparation blob") is shown only when it fails.
  try {
    execFileSync(release.node, ["--experimental-sea-config", config], { stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    process.stderr.write(`${error.stdout ?? ""}${error.stderr ?? ""}`);
    throw error;
  }

  rmSync(output, { force: true });
  copyFileSync(release.node, output);
  chmodSync(output, 0o755);
  const { inject } = require("postject");
  await withoutLiefNoteWarnings(() =>
    inject(output, "NODE_SEA_BLOB", readFileSync(join(work, "sea-prep.blob")), {
      sentinelFuse: "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2",
    }),
  );
  const nodeLicence = readFileSync(join(release.dir, "LICENSE"), "utf8");
  writeFileSync(
    join("dist", "THIRD-PARTY-NOTICES"),
    `${readFileSync("THIRD-PARTY-NOTICES", "utf8")}\n${section(`Node.js ${release.version} (the runtime of the single binary)`, nodeLicence.trim())}`,
  );
  console.error(`wrote ${output} (${(statSync(output).size / 1e6).toFixed(1)} MB)`);
}

// A failure (the registry out of reach, node-gyp not found, a compiler missing) is one line and a hint.
await main().catch((error) => process.exit(reportBuildFailure("npm run package", error)));
