/**
 * The single binary leaves DuckDB's 70 MB library out: `-o duckdb:PATH` there is refused in one line, exit 2,
 * before any request, saying how to get it (npm install). Run by node (npm's adreport) the same line
 * writes the table: the case shows both sides, as `npm test` runs it against both.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ACME_KEY } from "../helpers/demo-service";
import { startTestService } from "../helpers/serve";
import { runCli } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const binary = process.env.ADREPORT_TEST_BIN !== undefined;

describe("-o duckdb: in the single binary", { tags: ["binary"] }, () => {
  it("is refused in one line (exit 2, no request) by the binary; written by npm's adreport", async () => {
    const service = await startTestService({ keys: [ACME_KEY] });
    const dir = tempDir();
    const env = {
      ADREPORT_CONFIG_DIR: join(dir, "config"),
      ADREPORT_API_KEY: service.keys[0] as string,
      ADREPORT_BASE_URL: service.url,
    };
    const args = ["report", "--dims", "campaign,date", "--from", "2026-10-25", "--to", "2026-10-27", "-v"];
    const result = await runCli([...args, "-o", "duckdb:ads.duckdb"], { env, cwd: dir });
    if (binary) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toBe(
        "adreport: this adreport has no duckdb: target: DuckDB's library (@duckdb/node-api) is not installed with it\n" +
          "hint: the single binary leaves DuckDB out (70 MB); install adreport with npm, which brings it: npm install -g adreport\n",
      );
      expect(existsSync(join(dir, "ads.duckdb"))).toBe(false);
    } else {
      expect(result.code, result.stderr).toBe(0);
      expect(existsSync(join(dir, "ads.duckdb"))).toBe(true);
    }
  }, 60_000);
});
