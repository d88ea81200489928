/**
 * `--record` against a service that echoes the key encoded: base64 (padded or not), base64url, hex in
 * either case, base64 of `Bearer KEY`, `KEY:` and `:KEY`, and the key inside longer base64 texts at each
 * byte alignment, in headers, a page and an error body. The check is independent of how the recorder
 * finds them: every run of base64 or hex characters in the files is decoded at every offset, and no 12
 * bytes of the key may come out.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startLocalServer } from "../../helpers/local-server";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { tempDir } from "../../helpers/temp";

const KEY = "adr_Q9xLm2Zt7pW4rKs8Vb1Nc6Hd3Jf5Gy0Tq";
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const hex = Buffer.from(KEY, "utf8").toString("hex");

const ECHOES = [
  b64(KEY),
  b64(KEY).replace(/=+$/, ""),
  b64url(KEY),
  hex,
  hex.toUpperCase(),
  b64(`Bearer ${KEY}`),
  b64(`${KEY}:`),
  b64(`:${KEY}`),
  b64url(`Bearer ${KEY}`),
  encodeURIComponent(b64(`x${KEY}`)),
  // Inside longer base64 texts, the key starting at each of the three byte alignments.
  b64(`{"user":"acme","key":"${KEY}","n":1}`),
  b64(`{"user":"acme1","key":"${KEY}","n":1}`),
  b64(`{"user":"acme12","key":"${KEY}","n":1}`),
  b64url(`token=${KEY}&scope=reports`),
];

/** Every 12-byte run of the key. */
const WINDOWS = Array.from({ length: KEY.length - 11 }, (_, at) => KEY.slice(at, at + 12));

/** Does any decoding of any run of base64 or hex characters in `text` hold 12 bytes of the key? */
function leaks(text: string): string | undefined {
  const decodings: string[] = [];
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (let offset = 0; offset < 4; offset += 1) {
      const part = run.slice(offset);
      decodings.push(Buffer.from(part.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("latin1"));
    }
  }
  for (const run of text.match(/[0-9A-Fa-f]{8,}/g) ?? []) {
    for (const offset of [0, 1]) decodings.push(Buffer.from(run.slice(offset), "hex").toString("latin1"));
  }
  return decodings.find((decoded) => WINDOWS.some((window) => decoded.includes(window)));
}

const PAGE = (name: string) =>
  JSON.stringify({
    meta: {
      granularity: "total",
      dimensions: ["campaign"],
      metrics: ["views"],
      total: 2,
      page: 1,
      limit: 1,
      has_more: true,
    },
    data: [{ dimensions: { campaign_id: 1, name }, metrics: { views: 1 } }],
  });

describe("--record keeps no encoded echo of the key", () => {
  it("in headers, a page and an error body; nor does stderr", async () => {
    const echo = await startLocalServer((req, res) => {
      const page = new URL(req.url ?? "/", "http://x").searchParams.get("page");
      const headers: Record<string, string> = { "content-type": "application/json" };
      ECHOES.forEach((value, i) => {
        headers[`x-echo-${i}`] = value;
      });
      headers["x-basic"] = `Basic ${b64(`${KEY}:`)}`;
      if (page === "1") {
        res.writeHead(200, headers);
        res.end(PAGE(ECHOES.join(" ")));
        return;
      }
      res.writeHead(401, headers);
      res.end(
        JSON.stringify({
          error: { status: 401, code: "invalid_key", message: `key ${b64(KEY)} / ${hex} / ${b64(`Bearer ${KEY}`)}` },
        }),
      );
    });
    const dir = join(tempDir(), "rec");
    const args = ["report", "--from", "2026-11-01", "--to", "2026-11-02", "--metrics", "views", "--dims", "campaign"];
    const result = await runInProcess(
      [...args, "--page-size", "1", "-f", "csv", "--base-url", echo.url, "--record", dir, "--retries", "0"],
      { env: { ADREPORT_API_KEY: KEY } },
    );
    expect(result.code, result.stderr).toBe(3);
    expect(leaks(result.stderr), result.stderr).toBeUndefined();
    const files = readdirSync(dir).filter((name) => name.endsWith(".json"));
    expect(files.length).toBe(3);
    for (const name of files) {
      const text = readFileSync(join(dir, name), "utf8");
      for (const echoed of ECHOES) expect(text, `${name} holds ${echoed}`).not.toContain(echoed);
      expect(leaks(text), `${name} holds an encoding of the key`).toBeUndefined();
    }
    // What is not the key is kept: the header names, and the words around an echo.
    const first = readFileSync(join(dir, "0001.json"), "utf8");
    expect(first).toContain('["x-basic", "Basic ***');
  });

  it("the independent check finds what the old recorder kept", () => {
    for (const echoed of ECHOES) expect(leaks(`"name":"${echoed}"`), echoed).toBeDefined();
  });
});
