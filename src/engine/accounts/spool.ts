/**
 * Where the accounts of a run over several profiles wait for their turn: each account's export is written
 * as JSON into a private temporary folder (by the normal single-account path), and read back here a page
 * at a time when its turn to be written comes. The folder goes at the end of the run, whatever happened.
 */
import { createReadStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { OutputError } from "../../core/errors";
import { reasonInWords } from "../../io/errno-words";
import { removeSpoolLeftovers, spoolPrefix } from "../../io/leftovers";
import { removeAtExit } from "../../io/remove-at-exit";

/** Rows read back per page: the memory of a spooled account while it is being written out. */
const ROWS_PER_PAGE = 1000;

export interface SpoolFolder {
  readonly path: string;
  /** Where the export of the account at this place in the run goes. */
  fileFor(index: number): string;
  remove(): Promise<void>;
}

/**
 * A fresh folder in the system's temporary folder (TMPDIR), readable only by this user, named with this
 * process's pid: the folders of runs killed before they could remove theirs are removed first.
 */
export async function spoolFolder(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<SpoolFolder> {
  const parent = resolve(cwd, env.TMPDIR || tmpdir());
  await removeSpoolLeftovers(parent);
  let path: string;
  try {
    path = await mkdtemp(join(parent, spoolPrefix()));
  } catch (error) {
    throw new OutputError(`cannot make a temporary folder in ${parent}: ${reasonInWords(error)}`, {
      cause: error,
      hint: "accounts that end early wait there; set TMPDIR to a folder you can write, or use {profile} in --output",
    });
  }
  const cancel = removeAtExit(path);
  return {
    path,
    fileFor: (index) => join(path, `account-${index}.json`),
    remove: async () => {
      await rm(path, { recursive: true, force: true });
      cancel();
    },
  };
}

export interface SpooledReport {
  /** The export's `meta`, as the json format writes it (no page, limit or has_more). */
  meta: Record<string, unknown>;
  /**
   * The rows in the service's order, a page at a time, each as its JSON text: the bytes the service sent
   * for it where the export could keep them (src/format/rows-as-sent.ts).
   */
  pages: AsyncIterable<string[]>;
  /** Lets go of the file, whether or not its pages were read. */
  close(): void;
}

/**
 * Reads back an export the json format wrote (src/format/json.ts): `{"meta":...,"data":[` on the first
 * line, then one row a line, each but the last followed by a comma, then `]}`.
 */
export async function readSpooled(path: string): Promise<SpooledReport> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done || !first.value.endsWith('"data":[')) {
    lines.close();
    throw new Error(`the spooled export ${path} does not start as expected`);
  }
  const { meta } = JSON.parse(`${first.value}]}`) as { meta: Record<string, unknown> };
  async function* pages(): AsyncGenerator<string[]> {
    try {
      let page: string[] = [];
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        const line = next.value;
        if (line === "" || line === "]}") continue;
        page.push(line.endsWith(",") ? line.slice(0, -1) : line);
        if (page.length >= ROWS_PER_PAGE) {
          yield page;
          page = [];
        }
      }
      if (page.length > 0) yield page;
    } finally {
      lines.close();
    }
  }
  return { meta, pages: pages(), close: () => lines.close() };
}
