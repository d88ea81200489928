/**
 * `report --record DIR` and `serve replay DIR` against a small server of our own that answers unlike
 * `serve` (odd headers and their order, repeated headers, another key order, number spellings, escapes,
 * chunked bodies, a 503 before a page): the replay answers byte for byte what that server sent, and a
 * report against the replay writes what the report against the server wrote. The key, and every echo of
 * it, never reaches the recording.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { maskKey } from "../../../src/core/mask-key";
import { startLocalServer } from "../../helpers/local-server";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { serveInProcess } from "../../helpers/serve-in-process";
import { tempDir } from "../../helpers/temp";

const KEY = "adr_k3yK3yk3yK3yk3yK3yk3yK3yk3yK3y";
const MASKED = maskKey(KEY);

interface Sent {
  target: string;
  status: number;
  /** Raw header pairs as written, in order. */
  headers: Array<[string, string]>;
  body: Buffer;
}

/** The raw answer to a GET: status, header pairs in the order received, body bytes. */
function rawGet(url: string): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const headers: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          headers.push([res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string]);
        }
        resolve({
          target: new URL(url).pathname + new URL(url).search,
          status: res.statusCode ?? 0,
          headers,
          body: Buffer.concat(chunks),
        });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Header lines that describe the answer, not the connection, as sent: names in their case, in order. */
function answerHeaders(headers: Array<[string, string]>): Array<[string, string]> {
  return headers.filter(
    ([n]) => !["connection", "keep-alive", "transfer-encoding", "content-length"].includes(n.toLowerCase()),
  );
}

/**
 * Pages of 2 rows in another server's style: `data` before `meta`, fields of its own, `5.0`, `\u00e9`.
 * Page 1 is first answered 503 (Retry-After: 0); page 2 is sent chunked, without Content-Length.
 */
async function oddService() {
  const sent: Sent[] = [];
  const asked = new Map<string, number>();
  const rows = [
    `{"metrics":{"views":5.0,"clicks":1},"dimensions":{"name":"Caf\\u00e9 \\"Ete\\"","campaign_id":1,"date":1793491200},"extra":true}`,
    `{"metrics":{"views":7,"clicks":0},"dimensions":{"name":"Café \\"Ete\\"","campaign_id":1,"date":1793577600}}`,
    `{"metrics":{"views":1e2,"clicks":3},"dimensions":{"name":"=HYPERLINK(\\"x\\")","campaign_id":2,"date":1793491200}}`,
  ];
  const server = await startLocalServer((req, res) => {
    const target = req.url ?? "/";
    const page = Number(new URL(target, "http://x").searchParams.get("page") ?? "1");
    const count = (asked.get(target) ?? 0) + 1;
    asked.set(target, count);
    let status = 200;
    let headers: Array<[string, string]>;
    let body: string;
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      status = 401;
      headers = [["Content-Type", "application/json"]];
      body = `{"error":{"code":"invalid_key","message":"no","status":401}}`;
    } else if (page === 1 && count === 1) {
      status = 503;
      headers = [
        ["Retry-After", "0"],
        ["Content-Type", "text/plain"],
      ];
      body = "warming up\n";
    } else {
      const data = rows.slice((page - 1) * 2, page * 2);
      headers = [
        ["X-Odd", "first"],
        ["Set-Cookie", "a=1; Path=/"],
        ["Content-Type", "application/json;charset=UTF-8"],
        ["Set-Cookie", "b=2; Path=/"],
        ["Date", "Sun, 01 Nov 2026 00:00:00 GMT"],
        ["Cache-Control", "no-store"],
      ];
      body = `{"data":[${data.join(",\n")}],"meta":{"has_more":${page < 2},"total":3,"limit":2,"page":${page},"metrics":["views","clicks"],"dimensions":["campaign","date"],"granularity":"DAILY","server":"odd"}}`;
    }
    const bytes = Buffer.from(body, "utf8");
    if (page !== 2) headers.push(["Content-Length", String(bytes.length)]);
    sent.push({ target, status, headers, body: bytes });
    res.sendDate = false; // the headers listed are all the answer's headers
    res.writeHead(status, headers.flat());
    res.end(bytes);
  });
  return { server, sent };
}

const REPORT = ["report", "--from", "2026-11-01", "--to", "2026-11-02", "--metrics", "views,clicks"];
const reportArgs = (base: string, format: string) => [
  ...REPORT,
  "--dims",
  "campaign,date",
  "--page-size",
  "2",
  "--base-url",
  base,
  "-f",
  format,
];
const env = { ADREPORT_API_KEY: KEY };

function filesOf(dir: string): Array<{ name: string; bytes: Buffer }> {
  return readdirSync(dir).map((name) => ({ name, bytes: readFileSync(join(dir, name)) }));
}

describe("record and replay", () => {
  it("replays another server's answers byte for byte, and a report against the replay is the same", async () => {
    const odd = await oddService();
    const dir = join(tempDir(), "rec");
    const original = await runInProcess([...reportArgs(odd.server.url, "ndjson"), "--record", dir], { env });
    expect(original.stderr).toBe("");
    expect(original.code).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const files = filesOf(dir);
    expect(files.map((f) => f.name).sort()).toEqual(["0001.json", "0002.json", "0003.json", "index.json"]);
    for (const file of files) expect(statSync(join(dir, file.name)).mode & 0o777).toBe(0o600);
    const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8")) as { exchanges: Array<{ status: number }> };
    expect(index.exchanges.map((e) => e.status)).toEqual([503, 200, 200]);

    // The same requests, in the same order, to the replay: what the server sent, byte for byte.
    const replay = await serveInProcess(["replay", dir]);
    for (const answer of odd.sent) {
      const replayed = await rawGet(`${replay.url}${answer.target}`);
      expect(replayed.status).toBe(answer.status);
      expect(replayed.body.equals(answer.body)).toBe(true);
      expect(answerHeaders(replayed.headers)).toEqual(answerHeaders(answer.headers));
      expect(replayed.headers.find(([n]) => n.toLowerCase() === "content-length")?.[1]).toBe(
        String(answer.body.length),
      );
    }
    expect((await replay.stop()).code).toBe(0);

    // A report against a fresh replay (its answers start over) writes what the report against the server wrote.
    for (const format of ["ndjson", "csv", "json"]) {
      const fromServer = await runInProcess(reportArgs(odd.server.url, format), { env });
      const again = await serveInProcess(["replay", dir, "--quiet"]);
      const fromReplay = await runInProcess(reportArgs(again.url, format), { env });
      expect(fromReplay.code).toBe(0);
      expect(fromReplay.stdout).toBe(fromServer.stdout);
      await again.stop();
    }
  });

  // issue 35: a recording did not keep the command that made it.
  it("keeps the command that made it, its secrets out, and the replay says it", async () => {
    const odd = await oddService();
    const dir = join(tempDir(), "rec with space");
    const report = reportArgs(odd.server.url, "csv");
    const args = [...report, "--api-key", KEY, "-q", "--record", dir];
    const result = await runInProcess(args, { env: {} });
    expect(result.code, result.stderr).toBe(0);
    const indexText = readFileSync(join(dir, "index.json"), "utf8");
    expect(indexText).not.toContain(KEY);
    const index = JSON.parse(indexText) as { command: string[] };
    expect(index.command).toEqual(["adreport", ...args.map((word) => (word === KEY ? "***" : word))]);
    const replay = await serveInProcess(["replay", dir]);
    const said = await replay.run.waitFor("stderr", /recorded by: .*\n/);
    expect(said).toContain(
      `adreport serve: recorded by: adreport ${report.join(" ")} --api-key '***' -q --record '${dir}'\n`,
    );
    expect(said).not.toContain(KEY);
    await replay.stop();
  });

  it("answers a request it has not recorded with 404 JSON naming the nearest recorded one", async () => {
    const odd = await oddService();
    const dir = join(tempDir(), "rec");
    expect((await runInProcess([...reportArgs(odd.server.url, "ndjson"), "--record", dir], { env })).code).toBe(0);
    const replay = await serveInProcess(["replay", dir]);
    const asked = await rawGet(
      `${replay.url}/v1/report?limit=2&page=3&to=2026-11-02&from=2026-11-01&metrics=views%2Cclicks&dimensions=campaign%2Cdate`,
    );
    expect(asked.status).toBe(404);
    const body = JSON.parse(asked.body.toString("utf8")) as {
      error: { status: number; code: string; message: string };
      nearest: { query: Record<string, string>; differs: unknown[] };
    };
    expect(body.error).toMatchObject({ status: 404, code: "not_recorded" });
    expect(body.nearest.differs).toEqual([{ param: "page", recorded: "1", asked: "3" }]);
    expect(body.error.message).toContain("page (recorded 1, asked 3)");
    // Parameters in another order are the same request.
    const reordered = await rawGet(
      `${replay.url}/v1/report?page=2&limit=2&dimensions=campaign%2Cdate&metrics=views%2Cclicks&from=2026-11-01&to=2026-11-02`,
    );
    expect(reordered.status).toBe(200);
    const report = await runInProcess([...reportArgs(replay.url, "csv").slice(0, -2), "--metrics", "views"], { env });
    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(
      /^adreport: not recorded: GET \/v1\/report\?.*metrics \(recorded views,clicks, asked views\)/,
    );
    expect(replay.run.stderr()).toContain("404 not recorded");
    await replay.stop();
  });

  it("never writes the key, nor any echo of it, into the recording", async () => {
    // A service that echoes the key everywhere it can: headers, an error body, and names in a page.
    const echo = await startLocalServer((req, res) => {
      const auth = req.headers.authorization ?? "";
      const page = new URL(req.url ?? "/", "http://x").searchParams.get("page");
      if (page === "1") {
        const body = `{"meta":{"granularity":"total","dimensions":["campaign"],"metrics":["views"],"total":2,"page":1,"limit":1,"has_more":true},"data":[{"dimensions":{"campaign_id":1,"name":"${KEY} ${MASKED} ${encodeURIComponent(KEY)}"},"metrics":{"views":1}}]}`;
        res.writeHead(200, { "content-type": "application/json", "x-echo": auth });
        res.end(body);
        return;
      }
      res.writeHead(401, { "content-type": "application/json", "www-authenticate": `Bearer key="${KEY}"` });
      res.end(
        JSON.stringify({ error: { status: 401, code: "invalid_key", message: `key ${KEY} (${MASKED}) is unknown` } }),
      );
    });
    const dir = join(tempDir(), "rec");
    const result = await runInProcess(
      [
        "report",
        "--from",
        "2026-11-01",
        "--to",
        "2026-11-02",
        "--metrics",
        "views",
        "--dims",
        "campaign",
        "--page-size",
        "1",
        "-f",
        "csv",
        "--base-url",
        echo.url,
        "--record",
        dir,
        "--retries",
        "0",
      ],
      { env },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).not.toContain(KEY);
    const files = filesOf(dir);
    expect(files.length).toBe(3);
    for (const { name, bytes } of files) {
      const text = bytes.toString("utf8");
      for (const secret of [KEY, MASKED, encodeURIComponent(KEY), KEY.slice(4)]) {
        expect(text, `${name} holds ${secret}`).not.toContain(secret);
      }
      expect(text.toLowerCase()).not.toContain("authorization");
    }
    const first = readFileSync(join(dir, "0001.json"), "utf8");
    expect(first).toContain('"name\\":\\"*** *** ***\\"');
    expect(first).toContain('["x-echo", "Bearer ***"]');
  });

  it("refuses a folder that holds files, and names a path it cannot create", async () => {
    const base = tempDir();
    writeFileSync(join(base, "old.json"), "{}");
    const full = await runInProcess([...REPORT, "--base-url", "http://127.0.0.1:9", "--record", base], { env });
    expect(full.code).toBe(2);
    expect(full.stderr).toBe(`adreport: --record: ${base} is not empty; record into a new folder\n`);
    const under = join(base, "old.json", "rec");
    const blocked = await runInProcess([...REPORT, "--base-url", "http://127.0.0.1:9", "--record", under], { env });
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toBe(`adreport: --record: cannot create ${under}: a part of the path is not a folder\n`);
  });

  it("keeps an answer cut off mid-body as a failure, which the replay leaves out and counts", async () => {
    let asked = 0;
    const page = `{"meta":{"granularity":"total","dimensions":[],"metrics":["views"],"total":1,"page":1,"limit":1000,"has_more":false},"data":[{"dimensions":{},"metrics":{"views":4}}]}`;
    const flaky = await startLocalServer((_req, res) => {
      asked += 1;
      if (asked === 1) {
        res.writeHead(200, { "content-type": "application/json", "content-length": "500" });
        res.write(page.slice(0, 40));
        setImmediate(() => res.socket?.destroy());
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(page);
    });
    const dir = join(tempDir(), "rec");
    const result = await runInProcess([...REPORT, "--base-url", flaky.url, "-f", "csv", "--record", dir], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("views\n4\n"); // the columns of meta.metrics
    const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8")) as {
      exchanges: Array<{ status?: number; failure?: string }>;
    };
    expect(index.exchanges.length).toBe(2);
    expect(index.exchanges[0]?.failure).toMatch(/./);
    expect(index.exchanges[1]?.status).toBe(200);
    const replay = await serveInProcess(["replay", dir]);
    expect(replay.run.stderr()).toContain("1 recorded request(s); 1 exchange(s) without an answer are not replayed");
    const again = await runInProcess([...REPORT, "--base-url", replay.url, "-f", "csv"], { env });
    expect(again.stdout).toBe(result.stdout);
    await replay.stop();
  });

  it("fails with exit 1 when the recording cannot be written, naming the file", async () => {
    const dir = join(tempDir(), "rec");
    const gone = await startLocalServer((_req, res) => {
      rmSync(dir, { recursive: true, force: true });
      res.writeHead(500, { "content-type": "application/json" });
      res.end("{}");
    });
    const result = await runInProcess([...REPORT, "--base-url", gone.url, "-f", "csv", "--record", dir], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`adreport: --record: cannot write ${dir}/0001.json: no such file or folder\n`);
  });

  it("refuses a folder that is not a recording", async () => {
    const result = await runInProcess(["serve", "replay", tempDir(), "--port", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is not a recording \(no index\.json\)/);
  });
});
