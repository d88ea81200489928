/**
 * `serve replay DIR` reads only regular files of a bounded size: a link (which could lead to /dev/zero), a
 * named pipe, a folder or an oversized file in the recording is exit 2 naming the file and why, before it
 * listens.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { exchangeFileText, indexEntry, indexText, type RecordedExchange } from "../../../src/contract";
import { startInProcess } from "../../helpers/run-cli-in-process";
import type { CliResult } from "../../helpers/spawn-cli";
import { tempDir } from "../../helpers/temp";

function exchange(number: number): RecordedExchange {
  return {
    number,
    request: { method: "GET", path: "/v1/report", query: [["page", String(number)]], headers: [] },
    response: { status: 200, headers: [["content-type", "application/json"]], body: Buffer.from("{}") },
  };
}

/** A recording of one exchange, 0001.json. */
function recording(): string {
  const dir = tempDir();
  writeFileSync(join(dir, "0001.json"), exchangeFileText(exchange(1)));
  writeFileSync(join(dir, "index.json"), indexText([indexEntry(exchange(1))]));
  return dir;
}

/** How `serve replay` ended; one that listens (the old code, following a link) is stopped at once. */
async function replay(dir: string): Promise<CliResult> {
  const run = startInProcess(["serve", "replay", dir, "--port", "0"]);
  const listened = run.waitFor("stdout", /\n/).then(
    () => run.signal("SIGTERM"),
    () => undefined,
  );
  const result = await run.result;
  await listened;
  return result;
}

describe("serve replay refuses what is not a bounded regular file", () => {
  it("an exchange file that is a symbolic link, even to a good exchange", async () => {
    const dir = recording();
    symlinkSync(join(dir, "0001.json"), join(dir, "0002.json"));
    const result = await replay(dir);
    expect(result.stderr).toBe(`adreport: ${dir}/0002.json: a symbolic link, which serve replay does not follow\n`);
    expect(result.code).toBe(2);
  });

  it("an index that is a symbolic link", async () => {
    const dir = recording();
    const elsewhere = tempDir();
    writeFileSync(join(elsewhere, "index.json"), indexText([indexEntry(exchange(1))]));
    const linked = tempDir();
    writeFileSync(join(linked, "0001.json"), exchangeFileText(exchange(1)));
    symlinkSync(join(dir, "index.json"), join(linked, "index.json"));
    const result = await replay(linked);
    expect(result.stderr).toBe(`adreport: ${linked}/index.json: a symbolic link, which serve replay does not follow\n`);
    expect(result.code).toBe(2);
  });

  it("a folder named like an exchange file", async () => {
    const dir = recording();
    mkdirSync(join(dir, "0002.json"));
    const result = await replay(dir);
    expect(result.stderr).toBe(`adreport: ${dir}/0002.json: a folder, not a regular file\n`);
    expect(result.code).toBe(2);
  });

  it("a named pipe, without waiting for a writer", async () => {
    const dir = recording();
    const fifo = join(dir, "0002.json");
    execFileSync("mkfifo", [fifo]);
    // Unblocks a reader that opened the pipe and waits (the old code); refused, nobody opens it and this
    // writer waits until it is killed.
    const writer = spawn("sh", ["-c", `sleep 2; echo x > '${fifo}'`], { stdio: "ignore" });
    onTestFinished(() => {
      writer.kill("SIGKILL");
    });
    const started = performance.now();
    const result = await replay(dir);
    expect(result.stderr).toBe(`adreport: ${fifo}: a named pipe, not a regular file\n`);
    expect(result.code).toBe(2);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("a file over 64 MB, refused before it is read", async () => {
    const dir = recording();
    const big = join(dir, "0002.json");
    writeFileSync(big, "");
    truncateSync(big, 64 * 1024 * 1024 + 1); // sparse: no disk space taken
    const result = await replay(dir);
    expect(result.stderr).toBe(`adreport: ${big}: 65 MB, larger than the 64 MB serve replay reads of one file\n`);
    expect(result.code).toBe(2);
  });

  it("a good recording still replays", async () => {
    const dir = recording();
    const run = startInProcess(["serve", "replay", dir, "--port", "0"]);
    const url = (await run.waitFor("stdout", /\n/)).trim();
    const answer = await fetch(`${url}/v1/report?page=1`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("{}");
    run.signal("SIGTERM");
    expect((await run.result).code).toBe(0);
  });
});
