// The import rules of src/, as allow lists: each folder names the folders it may import, and nothing else
// is allowed. `npm run lint` runs this after Biome (`node scripts/import-rules.mjs`); docs/development.md
// shows the same table (`npm run docs` writes it; test/unit/docs/import-rules.test.ts checks both).
// A file belongs to the most specific folder listed here; imports inside one folder are always allowed.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** folder -> the folders its files may import, lowest layers first. */
export const ALLOWED = {
  core: [],
  io: [],
  contract: ["core"],
  config: ["core", "io", "contract"],
  api: ["core", "contract"],
  state: ["core", "io", "contract"],
  format: ["core", "io", "contract"],
  transform: ["core", "contract"],
  targets: [
    "core",
    "contract",
    "state",
    "format",
    "targets/files",
    "targets/table",
    "targets/sqlite",
    "targets/duckdb",
    "targets/postgres",
  ],
  "targets/files": ["targets", "core", "io", "contract", "state", "format"],
  "targets/table": ["targets", "core", "contract", "state"],
  "targets/sqlite": ["targets", "targets/table", "core", "state"],
  "targets/duckdb": ["targets", "targets/table", "core", "state"],
  "targets/postgres": ["targets", "targets/table", "core", "state"],
  server: ["core", "contract"],
  "server/index": ["server", "core", "contract"],
  engine: ["core", "io", "api"],
  "engine/plan": ["engine", "core", "io", "contract", "config", "state", "format", "transform", "targets"],
  "engine/run": [
    "engine",
    "engine/plan",
    "engine/days",
    "core",
    "io",
    "contract",
    "config",
    "api",
    "state",
    "transform",
  ],
  "engine/days": ["engine", "engine/plan", "engine/run", "core", "contract", "config", "api", "state", "targets"],
  "engine/dry-run": ["engine/plan", "engine/days", "core", "contract", "targets"],
  "engine/verify": [
    "engine",
    "engine/plan",
    "engine/run",
    "core",
    "io",
    "contract",
    "config",
    "api",
    "state",
    "format",
    "targets",
    "targets/files",
    "targets/table",
  ],
  "engine/accounts": ["engine", "engine/plan", "engine/run", "core", "io", "contract", "format", "transform"],
  "engine/status": ["engine", "engine/plan", "engine/days", "core", "io", "state", "targets"],
  commands: ["core", "io", "api"],
  "commands/shared": [
    "commands",
    "core",
    "io",
    "config",
    "api",
    "state",
    "format",
    "engine",
    "engine/plan",
    "engine/run",
    "engine/days",
  ],
  "commands/config": ["commands", "commands/shared", "core", "config"],
  "commands/keys": [
    "commands",
    "commands/shared",
    "core",
    "io",
    "contract",
    "config",
    "api",
    "engine/plan",
    "engine/run",
  ],
  "commands/state": [
    "commands",
    "commands/shared",
    "core",
    "io",
    "targets",
    "engine/plan",
    "engine/days",
    "engine/status",
  ],
  "commands/status": ["commands", "commands/shared", "core", "io", "config", "engine/status", "engine/days"],
  "commands/report": [
    "commands",
    "commands/shared",
    "core",
    "io",
    "contract",
    "config",
    "engine/plan",
    "engine/run",
    "engine/dry-run",
    "engine/accounts",
  ],
  "commands/verify": [
    "commands",
    "commands/shared",
    "core",
    "io",
    "contract",
    "config",
    "state",
    "engine/plan",
    "engine/run",
    "engine/days",
    "engine/verify",
  ],
  "commands/serve": ["commands", "commands/shared", "core", "io", "contract", "engine/run", "server/index"],
  cli: ["commands/*", "commands", "core", "io", "contract", "config"],
};

/** Names kept above the engine: a command's flags only in commands/; commander only where the program is built. */
export const NAMED_ONLY_IN = [
  { name: /\bReportFlags\b/, folders: ["commands"] },
  { name: /from "(commander|@commander-js\/extra-typings)"/, folders: ["commands", "cli"] },
];

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
const folders = Object.keys(ALLOWED).sort((a, b) => b.length - a.length);

/** The folder (a key of ALLOWED) a path under src/ belongs to. */
export function folderOf(path) {
  const rel = path.split(sep).join("/").replace(/\.ts$/, "");
  return folders.find((f) => rel === f || rel.startsWith(`${f}/`));
}

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.ts$/.test(entry.name)) yield path;
  }
}

const IMPORT = /(?:\bfrom|\bimport\(?)\s*"(\.{1,2}\/[^"]+)"/g;

/** `commands/*` allows every folder below commands/. */
function mayImport(allowed, folder) {
  return allowed.some((may) => may === folder || (may.endsWith("/*") && folder.startsWith(may.slice(0, -1))));
}

/** Every import that breaks a rule, as `src/a/b.ts -> src/c/d (a may not import c)`. */
export function importViolations(src = root) {
  const found = [];
  for (const file of sourceFiles(src)) {
    const from = relative(src, file);
    const own = folderOf(from);
    const text = readFileSync(file, "utf8");
    for (const [, spec] of text.matchAll(IMPORT)) {
      const target = normalize(join(dirname(file), spec));
      const isFolder = statSync(target, { throwIfNoEntry: false })?.isDirectory() === true;
      const to = relative(src, isFolder ? join(target, "index") : target);
      const theirs = folderOf(to) ?? to.split(sep)[0];
      if (own === undefined) found.push(`src/${from}: in no folder of scripts/import-rules.mjs`);
      else if (theirs !== own && !mayImport(ALLOWED[own], theirs)) {
        found.push(`src/${from} -> src/${to} (${own}/ may not import ${theirs}/)`);
      }
    }
    for (const { name, folders: only } of NAMED_ONLY_IN) {
      if (!only.includes(from.split(sep)[0]) && name.test(text)) {
        found.push(`src/${from}: names ${name.source} (only ${only.join("/, ")}/ may)`);
      }
    }
  }
  return found;
}

/** The rules as docs/development.md shows them. */
export function rulesTable() {
  const rows = Object.entries(ALLOWED).map(
    ([f, may]) => `| \`${f}/\` | ${may.map((m) => `\`${m}\``).join(", ") || "nothing"} |`,
  );
  return ["| folder | may import (nothing else) |", "| --- | --- |", ...rows].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const violations = importViolations();
  for (const line of violations) console.error(`import rules: ${line}`);
  if (violations.length > 0) {
    console.error(`${violations.length} import(s) break the rules in scripts/import-rules.mjs`);
    process.exit(1);
  }
}
