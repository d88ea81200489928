/**
 * TSV output read back by a real TSV reader: Miller (`mlr --itsv`), or where it is missing PostgreSQL's
 * COPY text format. Every name must come back exactly, tabs, line breaks, carriage returns and
 * backslashes included. `TSV_READER=postgres` runs the PostgreSQL reader even when Miller is there.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { ReportPage } from "../../../src/contract";
import { cellsOf, columnsOf } from "../../../src/format/columns";
import { formatNamed } from "../../../src/format/registry";
import { tempDir } from "../../helpers/temp";

const FIXTURES = join(import.meta.dirname, "..", "..", "..", "fixtures", "api");

async function tsvOf(fixture: string): Promise<{ tsv: string; expected: Array<Record<string, string>> }> {
  const page = JSON.parse(readFileSync(join(FIXTURES, `${fixture}.json`), "utf8")) as ReportPage;
  const formatter = await formatNamed("tsv")?.load();
  if (!formatter) throw new Error("no tsv formatter");
  const out = new PassThrough();
  let tsv = "";
  out.on("data", (chunk: Buffer) => {
    tsv += chunk.toString();
  });
  async function* pages() {
    yield { rows: page.data };
  }
  await formatter.write({ meta: page.meta, totalKnown: true, pages: pages() }, out, {
    delimiter: ",",
    bom: false,
    spreadsheet: false,
    color: false,
  });
  // Every cell as text, as the readers give it back: what csv and table output show for the same rows.
  const columns = columnsOf(page.meta, page.data[0]);
  const keys = [...columns.dimensionKeys, ...columns.metrics];
  const expected = page.data.map((row) =>
    Object.fromEntries(
      cellsOf(row, columns, page.meta.granularity).map((cell, i) => [keys[i], cell === undefined ? "" : String(cell)]),
    ),
  );
  return { tsv, expected };
}

function found(command: string): boolean {
  return spawnSync(command, ["--version"], { encoding: "utf8" }).status === 0;
}

function miller(tsv: string): Array<Record<string, string>> {
  const result = spawnSync("mlr", ["--itsv", "--ojson", "--infer-none", "cat"], { input: tsv, encoding: "utf8" });
  if (result.status !== 0) throw new Error(result.stderr);
  // Miller escapes tab, CR and LF in its JSON strings but writes other C0 characters (ESC, BEL) raw, which
  // JSON.parse refuses; its own layout uses only spaces and line feeds.
  const json = [...result.stdout]
    .map((char) => (char < " " && char !== "\n" ? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}` : char))
    .join("");
  return JSON.parse(json);
}

/** A throw-away cluster on a Unix socket in a temporary folder (as the postgres user when run as root). */
function postgres(tsv: string, columns: string[]): Array<Record<string, string>> {
  const dir = tempDir("adreport-pg-");
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[], input?: string) => {
    const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
    const result = spawnSync(cmd, argv, { input, encoding: "utf8", cwd: dir });
    if (result.status !== 0) throw new Error(`${command}: ${result.stderr}`);
    return result.stdout;
  };
  const data = join(dir, "data");
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C"]);
  run("pg_ctl", ["-D", data, "-w", "-o", `-k ${dir} -c listen_addresses=''`, "-l", join(dir, "log"), "start"]);
  try {
    const table = columns.map((c) => `"${c}" text`).join(", ");
    run(
      "psql",
      [
        "-h",
        dir,
        "-U",
        "postgres",
        "-v",
        "ON_ERROR_STOP=1",
        "-c",
        `CREATE TABLE t (${table})`,
        "-c",
        "COPY t FROM STDIN (FORMAT text, HEADER true)",
      ],
      tsv,
    );
    return JSON.parse(run("psql", ["-h", dir, "-U", "postgres", "-At", "-c", "SELECT json_agg(t) FROM t"]));
  } finally {
    run("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
  }
}

const hasMiller = process.env.TSV_READER !== "postgres" && found("mlr");
const hasPostgres = !hasMiller && ["initdb", "pg_ctl", "psql"].every(found);
if (!hasMiller && !hasPostgres) {
  console.warn("tsv-readers: skipped: neither Miller (mlr) nor PostgreSQL (initdb, pg_ctl, psql) is on PATH");
}

describe.each(["hostile-names", "campaign-date", "ad-hourly"])("TSV of %s read back", (fixture) => {
  it.skipIf(!hasMiller)("by Miller", async () => {
    const { tsv, expected } = await tsvOf(fixture);
    expect(miller(tsv)).toEqual(expected);
  });

  it.skipIf(!hasPostgres)("by PostgreSQL's COPY text format", async () => {
    const { tsv, expected } = await tsvOf(fixture);
    const header = (tsv.split("\n")[0] as string).split("\t");
    expect(postgres(tsv, header)).toEqual(expected);
  });
});
