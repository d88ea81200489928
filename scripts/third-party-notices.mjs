// THIRD-PARTY-NOTICES: the name, version and licence text of every package whose code the bundle and the
// single binary carry. The list comes from esbuild's metafile of the binary's bundle (the widest: the npm
// bundle plus better-sqlite3's JavaScript), plus what is carried without being an import: Chart.js inlined
// into HTML pages, and SQLite compiled into better-sqlite3's addon. `npm run docs` writes the file; a test
// fails when it is stale.
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { build } from "esbuild";

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");

/** Packages carried without an import esbuild can see. */
const CARRIED = [
  { name: "chart.js", why: "inlined into every --format html page" },
  {
    name: "better-sqlite3",
    why: "its native addon, with SQLite compiled in, ships beside the bundle or inside the binary",
  },
];

function packageRootOf(file) {
  const parts = file.split(sep);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return undefined;
  const depth = parts[at + 1]?.startsWith("@") ? 3 : 2;
  return parts.slice(0, at + depth).join(sep);
}

function licenceText(root) {
  const file = readdirSync(root).find((name) => /^(licen[cs]e|copying)(\.(md|txt|markdown))?$/i.test(name));
  return file ? readFileSync(join(root, file), "utf8").trim() : undefined;
}

async function bundledPackageRoots() {
  const result = await build({
    entryPoints: [join(ROOT, "src/cli/sea.ts")],
    bundle: true,
    write: false,
    metafile: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    logLevel: "silent",
    define: { ADREPORT_VERSION: '"0"', ADREPORT_CHART_JS: '""' },
    // As scripts/package.mjs: DuckDB's JavaScript client is carried, its native bindings never (npm installs them).
    external: ["@duckdb/node-bindings"],
  });
  const roots = new Set();
  for (const input of Object.keys(result.metafile.inputs)) {
    const root = packageRootOf(resolve(ROOT, input));
    if (root) roots.add(realpathSync(root));
  }
  return roots;
}

const RULE = "-".repeat(100);

/** One package's notice: a ruled heading (licence texts have markdown headings of their own). */
export function section(title, text) {
  return `${RULE}\n${title}\n${RULE}\n\n${text}\n`;
}

function byText(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

export async function thirdPartyNotices() {
  const roots = await bundledPackageRoots();
  const why = new Map();
  for (const carried of CARRIED) {
    // Real paths: node_modules may be a link (a git worktree sharing an install).
    const root = realpathSync(join(ROOT, "node_modules", carried.name));
    roots.add(root);
    why.set(root, carried.why);
  }
  const entries = [...roots]
    .filter((root) => existsSync(join(root, "package.json")))
    .map((root) => {
      const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
      return { root, name: pkg.name, version: pkg.version, license: pkg.license ?? "see its text" };
    })
    // A package can sit in more than one folder (nested copies); each version is listed once.
    .filter((entry, i, all) => all.findIndex((e) => e.name === entry.name && e.version === entry.version) === i)
    .sort((a, b) => byText(a.name, b.name) || byText(a.version, b.version));
  const sections = entries.map((entry) => {
    const text = licenceText(entry.root) ?? `No licence file in the package; its package.json says: ${entry.license}`;
    const note = why.get(entry.root) ? ` (${why.get(entry.root)})` : "";
    return section(`${entry.name} ${entry.version} (${entry.license})${note}`, text);
  });
  const sqlite = section(
    "SQLite (public domain; compiled into better-sqlite3's addon)",
    "The author disclaims copyright to this source code. In place of a legal notice, here is a blessing:\n\n    May you do good and not evil.\n    May you find forgiveness for yourself and forgive others.\n    May you share freely, never taking more than you give.",
  );
  return [
    "THIRD-PARTY NOTICES",
    "",
    "adreport's bundle (dist/) and its single-file binary carry code of the packages below, under their",
    "own licences, reproduced here. Generated from the bundle's inputs by scripts/third-party-notices.mjs",
    "(`npm run docs`); the single binary also contains Node.js itself, whose licence is at",
    "https://github.com/nodejs/node/blob/main/LICENSE.",
    "",
    ...sections,
    sqlite,
  ].join("\n");
}
