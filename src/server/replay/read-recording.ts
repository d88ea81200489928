/** A recording folder read for replay: its index, then each exchange that got a whole answer. */
import { existsSync, readdirSync } from "node:fs";
import { validateHeaderName, validateHeaderValue } from "node:http";
import { join } from "node:path";
import { parseExchangeFile, parseIndex, RECORDING_INDEX, type RecordedExchange } from "../../contract";
import { printable } from "../../core/printable";
import { readRecordingFile, UnreadableFile } from "./read-file";

/** A folder that is not a recording, or a file of it that is not what the index says. */
export class RecordingError extends Error {
  override readonly name = "RecordingError";
}

/** The folders of `report --profiles ... --record DIR`: DIR/<profile>, each a recording. */
function accountRecordings(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, RECORDING_INDEX)))
      .map((entry) => printable(entry.name))
      .sort();
  } catch {
    return [];
  }
}

function readText(dir: string, name: string): string {
  try {
    return readRecordingFile(join(dir, name));
  } catch (error) {
    if (!(error instanceof UnreadableFile)) throw error;
    if (error.code === "ENOENT" && name === RECORDING_INDEX) {
      const accounts = accountRecordings(dir);
      throw new RecordingError(
        accounts.length > 0
          ? `${dir} holds the recordings of several accounts (${accounts.join(", ")}): replay one, e.g. ${join(dir, accounts[0] as string)}`
          : `${dir} is not a recording (no ${RECORDING_INDEX}); make one with report --record`,
      );
    }
    if (error.code === "ENOENT") throw new RecordingError(`${join(dir, name)}: listed in the index but missing`);
    if (error.code === "ENOTDIR") throw new RecordingError(`${dir} is not a folder`);
    throw new RecordingError(`${join(dir, name)}: ${error.message}`);
  }
}

export interface Recording {
  /** Every exchange with an answer, in the index's order. */
  answered: RecordedExchange[];
  /** Exchanges the recording kept no answer of (a connection lost, a timeout). */
  unanswered: number;
  /** The command line that made it (`adreport report ...`, its secrets `***`); older recordings have none. */
  command: string[] | undefined;
}

export function readRecording(dir: string): Recording {
  const index = parseIndex(readText(dir, RECORDING_INDEX));
  if (!index.ok) throw new RecordingError(`${join(dir, RECORDING_INDEX)}: ${index.message}`);
  // Every exchange file, by number: a long run rewrites its index only now and then, and a run that died
  // may have left exchanges the index does not list yet. The same request's answers keep their order.
  const listed = new Set(index.value.files);
  const files = readdirSync(dir)
    .filter((name) => /^\d{4,}\.json$/.test(name))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
  const present = new Set(files);
  const missing = [...listed].find((file) => !present.has(file));
  if (missing !== undefined) throw new RecordingError(`${join(dir, missing)}: listed in the index but missing`);
  const answered: RecordedExchange[] = [];
  let unanswered = 0;
  for (const file of files) {
    const exchange = parseExchangeFile(readText(dir, file));
    if (!exchange.ok) throw new RecordingError(`${join(dir, file)}: ${exchange.message}`);
    const response = exchange.value.response;
    for (const [name, value] of response?.headers ?? []) {
      try {
        validateHeaderName(name);
        validateHeaderValue(name, value);
      } catch {
        throw new RecordingError(`${join(dir, file)}: the header ${JSON.stringify(name).slice(0, 80)} cannot be sent`);
      }
    }
    if (response) answered.push(exchange.value);
    else unanswered += 1;
  }
  return { answered, unanswered, command: index.value.command };
}
