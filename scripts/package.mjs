// `npm run package`: a single-file executable with Node's own single executable applications (SEA):
// one CommonJS bundle, better-sqlite3's native addon as an asset, injected with postject into a copy of
// this machine's `node`. Nothing is downloaded. Writes dist/adreport-<platform>-<arch>.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build } from "esbuild";
import { inlineAssets } from "./inline-assets.mjs";
import { lazyChildProcess } from "./lazy-child-process.mjs";

const require = createRequire(import.meta.url);
const { version } = JSON.parse(readFileSync("package.json", "utf8"));
const work = join("dist", "sea");
const output = join("dist", `adreport-${process.platform}-${process.arch}`);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

await build({
  entryPoints: ["src/cli/sea.ts"],
  outfile: join(work, "adreport.cjs"),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  define: { ADREPORT_VERSION: JSON.stringify(version), ...inlineAssets() },
  legalComments: "none",
  plugins: [lazyChildProcess],
  logLevel: "warning",
  // The whole bundle's source stays in memory with the binary's code cache; minified it takes 12 MB less
  // (RSS of `--version`), which a 128 MiB container running a long export needs.
  minify: true,
});

const addon = require.resolve("better-sqlite3/build/Release/better_sqlite3.node");
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
execFileSync(process.execPath, ["--experimental-sea-config", config], { stdio: "inherit" });

rmSync(output, { force: true });
copyFileSync(process.execPath, output);
chmodSync(output, 0o755);
const { inject } = require("postject");
await inject(output, "NODE_SEA_BLOB", readFileSync(join(work, "sea-prep.blob")), {
  sentinelFuse: "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2",
});
console.error(`wrote ${output} (${(statSync(output).size / 1e6).toFixed(1)} MB)`);
