/** `serve --cors`: the flag reaches the server (repeatable, comma lists), and a value that is not an origin is exit 2. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { httpGet } from "../../helpers/http";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { serveInProcess } from "../../helpers/serve-in-process";
import { tempDir } from "../../helpers/temp";

const db = join(tempDir(), "cors.db");
const preflight = (origin: string) => ({
  method: "OPTIONS",
  headers: { origin, "access-control-request-method": "GET" },
});

describe("serve --cors", () => {
  it("allows every origin listed, repeated or comma-separated", async () => {
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    const serve = await serveInProcess([
      ...["--db", db, "--quiet", "--cors", "http://localhost:5173,https://App.example.com/"],
      ...["--cors", "https://staging.example.com"],
    ]);
    for (const origin of ["http://localhost:5173", "https://app.example.com", "https://staging.example.com"]) {
      const answer = await httpGet(`${serve.url}/v1/report`, preflight(origin));
      expect(answer.status).toBe(204);
      expect(answer.headers["access-control-allow-origin"]).toBe(origin);
    }
    expect((await httpGet(`${serve.url}/v1/report`, preflight("https://other.example.com"))).status).toBe(405);
    expect((await serve.stop()).code).toBe(0);
  });

  it.each([
    ["*", '--cors: "*" is not allowed: list each origin'],
    ["https://app.example.com/api", '--cors: "https://app.example.com/api" is not an origin'],
    ["app.example.com", '--cors: "app.example.com" is not an origin like https://app.example.com'],
  ])("refuses %s: exit 2 before listening", async (value, message) => {
    const result = await runInProcess(["serve", "--db", db, "--port", "0", "--cors", value]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`adreport: ${message}`);
  });
});
