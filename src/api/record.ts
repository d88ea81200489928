/**
 * `--record`: every request the transport sends and the answer it got, kept as the run goes, with the key
 * taken out first. The Authorization header is never kept; the key in each form of key-forms.ts (URL-encoded,
 * hex, base64) and its masked form (maskKey) are written `***` wherever a service echoed them: in a header
 * or in the body's bytes.
 * Where the exchanges go (a folder) is the caller's: see RecordingWriter.
 */
import {
  exchangeFileText,
  type HeaderPairs,
  type IndexEntry,
  indexEntry,
  indexText,
  type RecordedExchange,
  splitTarget,
} from "../contract";
import { databaseLabel, isPostgresUrl } from "../core/database-label";
import { maskKey } from "../core/mask-key";
import { maskedUrl } from "../core/masked-url";
import { keyForms } from "./key-forms";
import { keyFragmentRedactor } from "./key-fragments";
import type { HeaderLines } from "./raw-headers";
import { redactor } from "./redact";

/** Receives each finished exchange's file and the index after it. Throws what it cannot write. */
export interface RecordingWriter {
  writeExchange(file: string, text: string): void;
  writeIndex(text: string): void;
}

/** One request on its way: says how it ended, once. */
export interface RecordingTicket {
  /** `headers`: the lines as received, or undici's object of them when the lines could not be had. */
  answered(
    status: number,
    headers: HeaderLines | Record<string, string | string[] | undefined>,
    body: Uint8Array,
  ): void;
  failed(reason: string): void;
}

const REDACTED = "***";

/**
 * `bytes` with every occurrence of each secret's UTF-8 bytes replaced by `***`, every other byte as it was.
 * Latin-1 maps bytes to characters one to one, so string search finds byte sequences.
 */
function redactBytes(bytes: Uint8Array, secrets: readonly string[], fragments: (text: string) => string): Uint8Array {
  const original = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  let text = original;
  for (const secret of secrets) text = text.split(Buffer.from(secret, "utf8").toString("latin1")).join(REDACTED);
  text = fragments(text);
  return text === original ? bytes : Buffer.from(text, "latin1");
}

/** Flags whose value is a secret whatever it is: a key given on the command line. */
const SECRET_FLAGS = new Set(["--api-key"]);

/** A URL's password (or a user name given alone, a token often) as `***`; any other word as it was. */
function withoutCredentials(word: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(word)) return word;
  if (isPostgresUrl(word)) return databaseLabel(word);
  try {
    return maskedUrl(new URL(word)).href;
  } catch {
    return `${word.slice(0, word.indexOf("://") + 3)}${REDACTED}`;
  }
}

/**
 * The words of a command line as a recording keeps them: the value of --api-key, the key in any form
 * (`redact`) and a URL's credentials (`--proxy`, a `postgres://` output) are `***`.
 */
export function commandWords(argv: readonly string[], redact: (word: string) => string): string[] {
  return argv.map((word, i) => {
    const before = argv[i - 1];
    if (before !== undefined && SECRET_FLAGS.has(before)) return REDACTED;
    const equals = word.indexOf("=");
    if (word.startsWith("--") && equals > 0) {
      const [flag, value] = [word.slice(0, equals), word.slice(equals + 1)];
      return `${flag}=${SECRET_FLAGS.has(flag) ? REDACTED : withoutCredentials(redact(value))}`;
    }
    return withoutCredentials(redact(word));
  });
}

export class Recorder {
  private next = 1;
  /** Exchanges the index file lists. */
  private indexed = 0;
  private broken = false;
  private readonly entries: IndexEntry[] = [];
  private readonly redact: (text: string) => string;
  private readonly secrets: string[];
  /** Runs of the key's characters a service may echo (a prefix, a lower-cased copy): see key-fragments.ts. */
  private readonly fragments: (text: string) => string;
  /** Header names and values are compared without letter case (a proxy may lower-case them). */
  private readonly inHeader: RegExp | undefined;
  /** The command line that made the recording, its secrets out; kept in the index. */
  private readonly command: string[] | undefined;

  /** `argv`: the words after `adreport` of the command line being run. */
  constructor(
    apiKey: string,
    private readonly writer: RecordingWriter,
    argv?: readonly string[],
  ) {
    const byClient = redactor(apiKey).redact;
    const masked = maskKey(apiKey);
    // The masked form of a short key is only its prefix and asterisks: nothing to find, and too common.
    const maskedShowsKey = masked.includes("…");
    this.redact = (text) => (maskedShowsKey ? byClient(text).split(masked).join(REDACTED) : byClient(text));
    this.secrets = [...keyForms(apiKey), ...(apiKey !== "" && maskedShowsKey ? [masked] : [])];
    this.fragments = keyFragmentRedactor(Buffer.from(apiKey, "utf8").toString("latin1"), REDACTED);
    this.inHeader =
      this.secrets.length === 0
        ? undefined
        : new RegExp(this.secrets.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "giu");
    this.command = argv && ["adreport", ...commandWords(argv, (word) => this.redactHeader(word))];
    this.writeIndex();
  }

  /** A request about to be sent to `pathAndQuery` with `headers` (the Authorization header is left out). */
  begin(method: string, pathAndQuery: string, headers: Record<string, string>): RecordingTicket {
    const number = this.next++;
    const target = splitTarget(pathAndQuery);
    const request = {
      method,
      path: this.redact(target.path),
      query: target.query.map(([name, value]): [string, string] => [this.redact(name), this.redact(value)]),
      headers: this.pairs(Object.entries(headers).filter(([name]) => name.toLowerCase() !== "authorization")),
    };
    let done = false;
    const finish = (exchange: RecordedExchange) => {
      if (done || this.broken) return;
      done = true;
      try {
        this.writer.writeExchange(indexEntry(exchange).file, exchangeFileText(exchange));
      } catch (error) {
        this.broken = true;
        throw error;
      }
      this.entries.push(indexEntry(exchange));
      // Rewritten whole each time: after every exchange of a short run, every 100th of a long one (whose
      // index would otherwise be written about as many times over as its pages), and at the end.
      if (this.entries.length <= 100 || this.entries.length % 100 === 0) this.writeIndex();
    };
    return {
      answered: (status, received, body) =>
        finish({
          number,
          request,
          response: {
            status,
            headers: this.pairs(Array.isArray(received) ? received : Object.entries(received)),
            body: redactBytes(body, this.secrets, this.fragments),
          },
        }),
      failed: (reason) => finish({ number, request, failure: this.redact(reason) }),
    };
  }

  /** Writes the index as it stands, once more if exchanges came since it was last written. */
  finish(): void {
    if (!this.broken && this.indexed !== this.entries.length) this.writeIndex();
  }

  private writeIndex(): void {
    try {
      this.writer.writeIndex(indexText(this.entries, this.command));
    } catch (error) {
      // The run fails with this error; finish() must not raise it again over whatever ended the run.
      this.broken = true;
      throw error;
    }
    this.indexed = this.entries.length;
  }

  private redactHeader(text: string): string {
    const redacted = this.redact(text);
    return this.inHeader === undefined ? redacted : redacted.replace(this.inHeader, REDACTED);
  }

  private pairs(headers: Array<[string, string | string[] | undefined]>): HeaderPairs {
    const out: HeaderPairs = [];
    for (const [name, value] of headers) {
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
        out.push([this.redactHeader(name), this.redactHeader(one)]);
      }
    }
    return out;
  }
}
