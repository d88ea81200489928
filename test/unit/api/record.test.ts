/** The recorder: whatever a service sends back, the key (whole, URL-encoded or masked) never reaches a file. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commandWords, Recorder } from "../../../src/api/record";
import { redactor } from "../../../src/api/redact";
import { maskKey } from "../../../src/core/mask-key";

const KEY_FOR_WORDS = "adr_w0rdsW0rdsw0rdsW0rdsw0rdsW0rds";

function recorderFor(key: string) {
  const files = new Map<string, string>();
  const recorder = new Recorder(key, {
    writeExchange: (file, text) => files.set(file, text),
    writeIndex: (text) => files.set("index.json", text),
  });
  return { recorder, files };
}

const keyArb = fc.stringMatching(/^adr_[A-Za-z0-9]{32}$/);

describe("the recorder", () => {
  it("writes no form of the key, wherever the answer puts it", () => {
    fc.assert(
      fc.property(keyArb, fc.array(fc.string({ maxLength: 20 }), { maxLength: 5 }), (key, pieces) => {
        const { recorder, files } = recorderFor(key);
        const forms = [key, encodeURIComponent(key), maskKey(key)];
        const body = pieces.flatMap((piece, i) => [piece, forms[i % forms.length] as string]).join("");
        const ticket = recorder.begin("GET", "/v1/report?page=1", { authorization: `Bearer ${key}`, accept: "*/*" });
        ticket.answered(401, [["WWW-Authenticate", `Bearer key=${key}`]], Buffer.from(body, "utf8"));
        recorder.finish();
        for (const text of files.values()) {
          for (const form of [key, maskKey(key), key.slice(4)]) expect(text).not.toContain(form);
          expect(text.toLowerCase()).not.toContain("authorization");
        }
      }),
      { numRuns: 200 },
    );
  });

  it("changes no byte of a body that does not hold the key", () => {
    const { recorder, files } = recorderFor("adr_0123456789abcdefghijklmnopqrstuv");
    const bytes = Buffer.from([0xff, 0xfe, 0x41, 0x00, 0xe2, 0x80, 0xa6]);
    recorder.begin("GET", "/v1/report", {}).answered(200, { "content-type": "x" }, bytes);
    const file = JSON.parse(files.get("0001.json") ?? "{}") as { response: { body_base64: string } };
    expect(Buffer.from(file.response.body_base64, "base64").equals(bytes)).toBe(true);
  });

  it("lists exchanges in the index as they finish, failures with their reason", () => {
    const { recorder, files } = recorderFor("k");
    const first = recorder.begin("GET", "/v1/report?page=1", {});
    const second = recorder.begin("GET", "/v1/report?page=2", {});
    second.answered(200, {}, Buffer.from("{}"));
    first.failed("connection reset");
    first.answered(200, {}, Buffer.from("late"));
    const index = JSON.parse(files.get("index.json") ?? "{}") as { exchanges: Array<Record<string, unknown>> };
    expect(index.exchanges).toEqual([
      { file: "0002.json", method: "GET", path: "/v1/report", query: { page: "2" }, status: 200, bytes: 2 },
      { file: "0001.json", method: "GET", path: "/v1/report", query: { page: "1" }, failure: "connection reset" },
    ]);
  });

  it("writes no key a header carries in its name, or in another letter case (a proxy that lower-cases)", () => {
    const key = "adr_SeCrEt0123456789abcdefGHIJKLmnop";
    const { recorder, files } = recorderFor(key);
    recorder.begin("GET", "/v1/report", {}).answered(
      200,
      [
        [`X-Seen-${key}`, "1"],
        ["x-key-lower", key.toLowerCase()],
        [`x-${key.toLowerCase()}`, "2"],
      ],
      Buffer.from("{}"),
    );
    recorder.finish();
    for (const text of files.values()) expect(text.toLowerCase()).not.toContain(key.slice(4).toLowerCase());
  });

  it("writes no prefix or lower-cased copy of the key a body echoes", () => {
    const key = "adr_SeCrEt0123456789abcdefGHIJKLmnop";
    const { recorder, files } = recorderFor(key);
    const body = `{"error":{"message":"key ${key.slice(0, 20)}… (${key.toLowerCase()}) is bad"}}`;
    recorder.begin("GET", "/v1/report", {}).answered(401, [], Buffer.from(body));
    const file = JSON.parse(files.get("0001.json") ?? "{}") as { response: { body: string } };
    expect(file.response.body).toBe('{"error":{"message":"key ***… (***) is bad"}}');
  });
});

// issue 35: the index keeps the command line that made the recording, every secret in it `***`.
describe("commandWords", () => {
  const redact = redactor(KEY_FOR_WORDS).redact;
  it.each([
    [
      ["report", "--api-key", "anything"],
      ["report", "--api-key", "***"],
    ],
    [
      ["report", "--api-key=anything"],
      ["report", "--api-key=***"],
    ],
    [
      ["report", "--base-url", `https://x.example/?k=${KEY_FOR_WORDS}`],
      ["report", "--base-url", "https://x.example/?k=***"],
    ],
    [
      ["report", "-o", "postgres://ads:s3cret@db.example/ads"],
      ["report", "-o", "postgres://ads:***@db.example/ads"],
    ],
    [
      ["config", "set", "proxy", "http://u:pw@proxy:3128"],
      ["config", "set", "proxy", "http://u:***@proxy:3128/"],
    ],
    [
      ["report", "--base-url=http://token@host"],
      ["report", "--base-url=http://***@host/"],
    ],
    [
      ["report", "--dims", "campaign", "-o", "a b.csv"],
      ["report", "--dims", "campaign", "-o", "a b.csv"],
    ],
  ])("%j is kept as %j", (argv, kept) => {
    expect(commandWords(argv, redact)).toEqual(kept);
  });
});
