/**
 * Day files written by the real formatters through dayFileTarget, read back by readDayFile: the same rows,
 * sums (spending in micros) and digest as the record the export kept, in every format and CSV option; and
 * the faults a verify must see: a file cut short, a number edited, a row deleted, garbage.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DayFileWrite } from "../../../../src/state/store";
import { METRICS, pathIn, readDayFile, rowsOf, secondOf, writeDays } from "../../../helpers/day-files-written";
import { tempDir } from "../../../helpers/temp";

const DAYS = ["2026-03-01", "2026-03-02", "2026-03-03"];
const PLAIN: DayFileWrite = { format: "csv", delimiter: ",", bom: false, spreadsheet: false };

const WRITES: Array<[string, DayFileWrite, string]> = [
  ["csv", PLAIN, "{date}.csv"],
  ["csv with ;", { ...PLAIN, delimiter: ";" }, "{date}.csv"],
  ["csv with . (numbers quoted)", { ...PLAIN, delimiter: "." }, "{date}.csv"],
  ["csv with a tab", { ...PLAIN, delimiter: "\t" }, "{date}.csv"],
  ["csv --bom", { ...PLAIN, bom: true }, "{date}.csv"],
  ["csv --spreadsheet", { ...PLAIN, spreadsheet: true }, "{date}.csv"],
  ["tsv", { ...PLAIN, format: "tsv", delimiter: "\t" }, "{date}.tsv"],
  ["json", { ...PLAIN, format: "json" }, "{date}.json"],
  ["ndjson", { ...PLAIN, format: "ndjson" }, "{date}.ndjson"],
];

describe("readDayFile", () => {
  it.each(WRITES)("%s: every day reads back as the export recorded it", async (_name, write, template) => {
    const dir = tempDir();
    const records = await writeDays(dir, template, write, DAYS, rowsOf(DAYS, 40));
    expect([...records.keys()].sort()).toEqual(DAYS);
    for (const [day, record] of records) {
      const path = pathIn(dir, template, day);
      const read = await readDayFile(path, write, METRICS);
      expect(read).toEqual({ ...record, bytes: statSync(path).size });
    }
    // The last day has no rows: a header alone (nothing at all for NDJSON), every sum 0.
    expect(records.get("2026-03-03")).toMatchObject({ rows: 0, sums: { views: 0, spending: 0 } });
  });

  it.each(WRITES)("%s: a day larger than a read (characters split between chunks) reads back", async (_n, write, t) => {
    const dir = tempDir();
    const days = ["2026-03-01", "2026-03-02"];
    const records = await writeDays(dir, t, write, days, rowsOf(days, 5000), 700);
    const path = pathIn(dir, t, "2026-03-01");
    expect(statSync(path).size).toBeGreaterThan(3 * 65_536);
    expect(await readDayFile(path, write, METRICS)).toEqual({
      ...records.get("2026-03-01"),
      bytes: statSync(path).size,
    });
  });

  const faulty = async (write: DayFileWrite, template: string, change: (text: string) => string) => {
    const dir = tempDir();
    const records = await writeDays(dir, template, write, DAYS, rowsOf(DAYS, 12));
    const path = pathIn(dir, template, "2026-03-01");
    writeFileSync(path, change(readFileSync(path, "utf8")));
    return { record: records.get("2026-03-01"), read: await readDayFile(path, write, METRICS), path };
  };
  const TSV: DayFileWrite = { ...PLAIN, format: "tsv", delimiter: "\t" };
  const JSON_WRITE: DayFileWrite = { ...PLAIN, format: "json" };
  const NDJSON: DayFileWrite = { ...PLAIN, format: "ndjson" };
  const cut = (text: string) => text.slice(0, Math.floor(text.length * 0.6));

  it("a file cut short mid-row is unreadable, naming the line; its digest and size are still given", async () => {
    const csv = await faulty(PLAIN, "{date}.csv", (text) => text.slice(0, text.lastIndexOf(",", text.length - 30)));
    expect(csv.read).toEqual({
      unreadable: expect.stringMatching(/^line \d+: [1-5] fields, the header has 7$/),
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      bytes: statSync(csv.path).size,
    });
    expect(csv.read).not.toHaveProperty("digest", csv.record?.digest);
    // Cut inside a quoted name.
    const quoted = await faulty(PLAIN, "{date}.csv", (text) => text.slice(0, text.indexOf('"Sale""') + 3));
    expect(quoted.read).toMatchObject({ unreadable: expect.stringMatching(/^line 2: a quoted field is not closed/) });
    expect((await faulty(TSV, "{date}.tsv", cut)).read).toMatchObject({
      unreadable: expect.stringMatching(/^line \d+: [1-6] fields, the header has 7$/),
    });
    expect((await faulty(JSON_WRITE, "{date}.json", cut)).read).toMatchObject({
      unreadable: expect.stringMatching(/^line \d+: not a JSON row$/),
    });
    expect((await faulty(JSON_WRITE, "{date}.json", (t) => t.slice(0, t.lastIndexOf("]}")))).read).toMatchObject({
      unreadable: "the file ends before its closing ]} (cut short?)",
    });
    expect((await faulty(NDJSON, "{date}.ndjson", cut)).read).toMatchObject({
      unreadable: expect.stringMatching(/^line \d+: not a JSON row$/),
    });
  });

  it("an edited number changes the sums; a deleted row changes the rows; both still read", async () => {
    // The first row's views, 0, made 790.
    const edit = (text: string) => text.replace("2026-03-01,0,", "2026-03-01,790,");
    for (const [write, template] of [
      [PLAIN, "{date}.csv"],
      [{ ...PLAIN, spreadsheet: true }, "{date}.csv"],
    ] as const) {
      const edited = await faulty(write, template, edit);
      expect(edited.read).toMatchObject({ rows: 12, sums: { views: 790 + (edited.record?.sums.views ?? 0) } });
      expect(edited.read).not.toHaveProperty("digest", edited.record?.digest);
    }
    const json = await faulty(NDJSON, "{date}.ndjson", (t) => t.replace('"spending":0.1,', '"spending":0.2,'));
    expect(json.read).toMatchObject({ sums: { spending: (json.record?.sums.spending ?? 0) + 100_000 } });
    const dropLine = (n: number) => (text: string) =>
      text
        .split("\n")
        .filter((_, i) => i !== n)
        .join("\n");
    // [format, file, line index removed, the views of its row]
    for (const [write, template, line, views] of [
      [TSV, "{date}.tsv", 3, 2],
      [JSON_WRITE, "{date}.json", 3, 2],
      [NDJSON, "{date}.ndjson", 2, 2],
    ] as const) {
      const deleted = await faulty(write, template, dropLine(line));
      expect(deleted.read).toMatchObject({ rows: 11 });
      expect(deleted.read).toMatchObject({ sums: { views: (deleted.record?.sums.views ?? 0) - views } });
    }
    // The plain CSV has a name with a line break in the first rows: drop a later line.
    const csv = await faulty(PLAIN, "{date}.csv", dropLine(10));
    expect(csv.read).toMatchObject({ rows: 11 });
  });

  it("garbage, an empty CSV, a word for a number and a BOM before JSON are unreadable", async () => {
    const dir = tempDir();
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    expect(await readDayFile(file("a.csv", ""), PLAIN, METRICS)).toMatchObject({
      unreadable: "the file is empty: no header line",
      bytes: 0,
    });
    const header = "campaign_id,name,date,views,clicks,spending,conversions\n";
    expect(await readDayFile(file("b.csv", `${header}1,a,2026-03-01,12,x,1,2\n`), PLAIN, METRICS)).toMatchObject({
      unreadable: 'row 1: clicks is "x", not a number',
    });
    expect(await readDayFile(file("c.csv", "campaign_id,name,date,views\n"), PLAIN, METRICS)).toMatchObject({
      unreadable: 'line 1: the header has no column "clicks"',
    });
    expect(await readDayFile(file("d.csv", `${header}1,a"b",2026-03-01,1,2,3,4\n`), PLAIN, METRICS)).toMatchObject({
      unreadable: "line 2: a quote inside a field that is not quoted",
    });
    expect(await readDayFile(file("e.json", '\uFEFF{"meta":{},"data":[\n]}\n'), JSON_WRITE, METRICS)).toMatchObject({
      unreadable: expect.stringMatching(/^line 1: not the head/),
    });
    expect(await readDayFile(file("f.ndjson", '{"metrics":{}}\n\n{"metrics":{}}\n'), NDJSON, METRICS)).toMatchObject({
      unreadable: "line 2: not a JSON row (an empty line)",
    });
    expect(await readDayFile(file("g.ndjson", "[1,2]\n"), NDJSON, METRICS)).toMatchObject({
      unreadable: "line 1: not a row (a JSON object)",
    });
  });

  it("a named pipe is refused at once, never waited on; a missing file is unreadable", async () => {
    const dir = tempDir();
    const fifo = join(dir, "2026-03-01.csv");
    execFileSync("mkfifo", [fifo]);
    expect(await readDayFile(fifo, PLAIN, METRICS)).toEqual({
      unreadable: "it is not a regular file",
      digest: "",
      bytes: 0,
    });
    expect(await readDayFile(join(dir, "gone.csv"), PLAIN, METRICS)).toMatchObject({
      unreadable: "it cannot be opened: no such file or folder",
    });
  });

  it.each(WRITES)("%s: any number the service sends reads back to the same micros", async (_name, write, template) => {
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 });
    const metrics = fc.record({
      views: fc.integer(),
      clicks: fc.option(finite),
      spending: finite,
      conversions: finite,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(metrics, { minLength: 1, maxLength: 6 }), async (values) => {
        const dir = tempDir();
        const rows = values.map((m, i) => ({
          dimensions: { campaign_id: i, date: secondOf("2026-03-01") },
          metrics: m,
        }));
        const records = await writeDays(dir, template, write, ["2026-03-01"], rows);
        const path = pathIn(dir, template, "2026-03-01");
        expect(await readDayFile(path, write, METRICS)).toEqual({
          ...records.get("2026-03-01"),
          bytes: statSync(path).size,
        });
      }),
      { numRuns: 15 },
    );
  });

  it("with the ledger's record, a file of its digest is only hashed; one that differs is parsed", async () => {
    const dir = tempDir();
    const records = await writeDays(dir, "{date}.csv", PLAIN, DAYS, rowsOf(DAYS, 12));
    const path = pathIn(dir, "{date}.csv", "2026-03-01");
    const record = records.get("2026-03-01");
    if (record === undefined) throw new Error("no record");
    // Counts no parse could give back: only the digest was compared.
    const made = { ...record, rows: 999, sums: { views: -1 } };
    const bytes = statSync(path).size;
    expect(await readDayFile(path, PLAIN, METRICS, made)).toEqual({ ...made, bytes });
    writeFileSync(path, readFileSync(path, "utf8").replace("2026-03-01,0,", "2026-03-01,5,"));
    expect(await readDayFile(path, PLAIN, METRICS, made)).toMatchObject({
      rows: 12,
      sums: { views: (record.sums.views ?? 0) + 5 },
    });
    // A record kept before digests (none) is parsed.
    expect(await readDayFile(path, PLAIN, METRICS, { rows: 1, sums: {} })).toMatchObject({ rows: 12 });
  });

  // Behaviour only: the time `verify` takes over three years of files is `npm run bench -- verify`'s figure.
  it("1,100 small day files (three years) are each parsed to their rows", async () => {
    const dir = tempDir();
    const records = await writeDays(dir, "{date}.csv", PLAIN, DAYS, rowsOf(DAYS, 20));
    const source = pathIn(dir, "{date}.csv", "2026-03-01");
    const paths = Array.from({ length: 1100 }, (_, i) => join(dir, `copy-${i}.csv`));
    for (const path of paths) copyFileSync(source, path);
    for (const path of paths) expect(await readDayFile(path, PLAIN, METRICS)).toMatchObject({ rows: 20 });
    expect(records.get("2026-03-01")?.rows).toBe(20);
  });
});
