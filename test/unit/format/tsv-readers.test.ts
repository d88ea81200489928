/**
 * TSV output read back by real TSV readers: Miller (`mlr --itsv`) and PostgreSQL's COPY text format (a
 * throwaway cluster, test/helpers/postgres.ts). Every name must come back exactly, tabs, line breaks,
 * carriage returns and backslashes included.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { describe, expect, it } from "vitest";
import type { ReportPage } from "../../../src/contract";
import { cellsOf, columnsOf } from "../../../src/format/columns";
import { formatNamed } from "../../../src/format/registry";
import { usePostgres } from "../../helpers/postgres";
import { millerMissing, skipMissing } from "../../helpers/required-tools";

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

/** PostgreSQL's COPY text format, on a fresh database of the file's throwaway cluster. */
async function postgres(url: string, tsv: string, columns: string[]): Promise<Array<Record<string, string>>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE TABLE t (${columns.map((c) => `"${c}" text`).join(", ")})`);
    await pipeline(Readable.from([tsv]), client.query(copyFrom("COPY t FROM STDIN (FORMAT text, HEADER true)")));
    const { rows } = await client.query<{ all: Array<Record<string, string>> }>('SELECT json_agg(t) AS "all" FROM t');
    return rows[0]?.all ?? [];
  } finally {
    await client.end();
  }
}

const NO_MILLER = millerMissing();
if (NO_MILLER) console.warn(`tsv-readers: the Miller cases skip: ${NO_MILLER}`);
const postgresServer = usePostgres();

describe.each(["hostile-names", "campaign-date", "ad-hourly"])("TSV of %s read back", (fixture) => {
  it("by Miller", async (context) => {
    if (NO_MILLER) skipMissing(context, "miller", NO_MILLER);
    const { tsv, expected } = await tsvOf(fixture);
    expect(miller(tsv)).toEqual(expected);
  });

  it("by PostgreSQL's COPY text format", async (context) => {
    const url = await postgresServer.database(context);
    const { tsv, expected } = await tsvOf(fixture);
    const header = (tsv.split("\n")[0] as string).split("\t");
    expect(await postgres(url, tsv, header)).toEqual(expected);
  });
});
