/**
 * Standard error as JSON logs (`--log-format json`, ADREPORT_LOG_FORMAT=json; core/log-codes.ts): whole
 * lines become records as they come, a write its writer tagged becomes one record, and a line left without
 * its line feed is written when the stream ends.
 */
import type { Writable } from "node:stream";
import { jsonLogLines, type LineTag, LOG_TAG } from "../core/log-codes";

export function jsonLogStream(target: Writable, now: () => Date = () => new Date()): Writable {
  let pending = "";
  let tag: LineTag | undefined;
  const emit = (text: string, with_: LineTag | undefined) => {
    if (text !== "") target.write(jsonLogLines(text, with_, now()));
  };
  // Node's stream module is loaded when JSON logs are asked for, not at every start (the front never loads it).
  const { Writable: WritableStream } = process.getBuiltinModule("node:stream");
  const stream = new WritableStream({
    decodeStrings: false,
    write(chunk: Buffer | string, _encoding, done) {
      const text = chunk.toString();
      if (tag !== undefined) {
        const told = tag;
        tag = undefined;
        emit(pending, undefined);
        pending = "";
        emit(text, told);
      } else {
        const end = (pending + text).lastIndexOf("\n");
        const whole = (pending + text).slice(0, end + 1);
        pending = (pending + text).slice(end + 1);
        emit(whole, undefined);
      }
      done();
    },
    final(done) {
      emit(pending, undefined);
      pending = "";
      done();
    },
  });
  Object.defineProperty(stream, LOG_TAG, {
    value: (next: LineTag) => {
      tag = next;
    },
  });
  return stream;
}
