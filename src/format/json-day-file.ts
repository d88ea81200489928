/**
 * JSON and NDJSON day files read back as format/json.ts and format/ndjson.ts write them: a row a line, each
 * parsed with JSON.parse. JSON is `{"meta":{...},"data":[` on the first line, the rows one a line joined by
 * commas, then `]}`; a file laid out otherwise (reformatted by hand) is unreadable, not parsed as a whole,
 * so memory stays one line whatever the file's size.
 */
import type { ReportRow } from "../contract";
import { type DayFileRows, type RowMetrics, tellingReasons, UnreadableFile } from "./day-file";
import { LineSplitter } from "./line-splitter";

/** The row a line holds, or UnreadableFile naming the line. */
function parseRow(text: string, line: number): ReportRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UnreadableFile(`line ${line}: not a JSON row${text.length === 0 ? " (an empty line)" : ""}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UnreadableFile(`line ${line}: not a row (a JSON object)`);
  }
  const metrics = (value as { metrics?: unknown }).metrics;
  if (typeof metrics !== "object" || metrics === null || Array.isArray(metrics)) {
    throw new UnreadableFile(`line ${line}: a row without its metrics`);
  }
  return value as ReportRow;
}

export const ndjsonDayFile: DayFileRows = () => (_metrics, onRow) => {
  const lines = new LineSplitter((text, line) => onRow(parseRow(text, line).metrics));
  return tellingReasons({
    async write(chunk) {
      lines.write(chunk);
    },
    async end() {
      lines.end();
    },
  });
};

const HEAD_START = '{"meta":';
const HEAD_END = ',"data":[';
const CLOSE = "]}";

/** Where in the layout the next line is: the first after the head, after a row and its comma, before `]}`, after it. */
type Place = "first" | "row" | "close" | "done";

function checkHead(text: string): void {
  if (!text.startsWith(HEAD_START) || !text.endsWith(HEAD_END)) {
    throw new UnreadableFile(`line 1: not the head adreport writes (${HEAD_START}...${HEAD_END})`);
  }
  let meta: unknown;
  try {
    meta = JSON.parse(text.slice(HEAD_START.length, -HEAD_END.length));
  } catch {
    meta = undefined;
  }
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) {
    throw new UnreadableFile("line 1: its meta is not a JSON object");
  }
}

function jsonRows(onRow: (metrics: RowMetrics) => void) {
  let place: Place = "first";
  const row = (text: string, line: number) => {
    const more = text.endsWith(",");
    onRow(parseRow(more ? text.slice(0, -1) : text, line).metrics);
    place = more ? "row" : "close";
  };
  const onLine = (text: string, line: number) => {
    if (line === 1) return checkHead(text);
    switch (place) {
      case "first":
        if (text === CLOSE) place = "done";
        else if (text === "") place = "close";
        else row(text, line);
        return;
      case "row":
        if (text === CLOSE) throw new UnreadableFile(`line ${line}: ${CLOSE} after a comma (a row is missing)`);
        return row(text, line);
      case "close":
        if (text !== CLOSE) throw new UnreadableFile(`line ${line}: ${CLOSE} expected after the last row`);
        place = "done";
        return;
      case "done":
        if (text.trim() !== "") throw new UnreadableFile(`line ${line}: text after the closing ${CLOSE}`);
    }
  };
  const lines = new LineSplitter(onLine);
  return {
    async write(chunk: Buffer) {
      lines.write(chunk);
    },
    async end() {
      lines.end();
      if (place !== "done") throw new UnreadableFile(`the file ends before its closing ${CLOSE} (cut short?)`);
    },
  };
}

export const jsonDayFile: DayFileRows = () => (_metrics, onRow) => tellingReasons(jsonRows(onRow));
