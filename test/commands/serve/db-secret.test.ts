/**
 * A PostgreSQL password given through ADREPORT_DB (or --db) never reaches the terminal: not in any verb's
 * --help (where the environment's value is shown as the default), not in the error of a connection that
 * cannot be set up (TLS refused, a missing certificate file).
 */
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInProcess } from "../../helpers/run-cli-in-process";

const PASSWORD = "Hunter2SecretPw";

describe("a password in ADREPORT_DB", () => {
  const url = `postgres://someone:${PASSWORD}@127.0.0.1:5/shared`;

  it.each([
    "serve --help",
    "serve start --help",
    "serve init --help",
    "serve load --help",
    "serve demo --help",
    "serve key issue --help",
    "serve key list --help",
    "serve ip add --help",
  ])("is not in `%s`", async (line) => {
    const result = await runInProcess(line.split(" "), { env: { ADREPORT_DB: url } });
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(PASSWORD);
    expect(result.stdout).toContain("postgres://someone:***@127.0.0.1:5/shared");
  });

  it("leaves the default shown as before without it", async () => {
    const result = await runInProcess(["serve", "init", "--help"], { env: { ADREPORT_DB: undefined } });
    expect(result.stdout).toContain('(default:\n                   "adreport.db")');
  });
});

describe("a connection PostgreSQL cannot set up", () => {
  // A server that answers PostgreSQL's SSLRequest with 'N': it does not speak TLS.
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      socket.once("data", () => socket.write("N"));
      socket.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    port = typeof address === "object" && address ? address.port : 0;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("is the operator's mistake (exit 2), named without the password, when TLS is refused", async () => {
    const db = `postgres://someone:${PASSWORD}@127.0.0.1:${port}/shared?sslmode=verify-full`;
    for (const argv of [
      ["serve", "key", "list", "--db", db],
      ["serve", "start", "--port", "0", "--db", db],
    ]) {
      const result = await runInProcess(argv);
      expect(result.stderr).not.toContain(PASSWORD);
      expect(result.stderr).not.toContain("unexpected");
      expect(result.stderr).toMatch(
        /^adreport: cannot use postgres:\/\/someone:\*\*\*@127\.0\.0\.1:\d+\/shared\?sslmode=verify-full: /,
      );
      expect(result.code).toBe(2);
    }
  });

  it("is the operator's mistake (exit 2) when a certificate file the URL names is missing", async () => {
    const db = `postgres://someone:${PASSWORD}@127.0.0.1:${port}/shared?sslmode=no-verify&sslrootcert=/nonexistent/root.crt`;
    const result = await runInProcess(["serve", "key", "list", "--db", db]);
    expect(result.stderr).not.toContain(PASSWORD);
    expect(result.stderr).not.toContain("unexpected");
    expect(result.code).toBe(2);
  });
});
