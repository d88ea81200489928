/**
 * The single binary writes its SQLite addon to the shared temporary folder and loads it from there. A
 * folder of that name made by someone else, or a file in it that is not the addon, is never loaded: the
 * binary writes the addon to a private folder of its own instead. Only the binary has this path; handing
 * the folder to another user needs root.
 */
import { chownSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const binary = process.env.ADREPORT_TEST_BIN !== undefined;

describe("the single binary's SQLite addon in a shared temporary folder", { tags: ["binary"] }, () => {
  it("loads only an addon folder and file of its own user with the asset's bytes", {
    timeout: 60_000,
  }, async (context) => {
    if (!binary)
      context.skip("only the single binary loads its addon from a temporary folder (npm test's binary pass runs it)");
    if (process.getuid?.() !== 0) context.skip("needs root, to hand the folder to another user");
    const tmp = tempDir("adreport-addon-tmp-");
    const work = tempDir("adreport-addon-work-");
    const serveDemo = (db: string) =>
      runCli(["serve", "demo", "--db", join(work, db), "--days", "1"], { env: { TMPDIR: tmp } });
    expect((await serveDemo("first.db")).code).toBe(0);
    const [shared] = readdirSync(tmp).filter((name) => name.startsWith("adreport-addon-"));
    expect(shared).toBeDefined();
    const planted = join(tmp, shared as string, "better_sqlite3.node");
    // Another user's folder (as root here: hand it to nobody), holding something else under the addon's name.
    writeFileSync(planted, "not an addon");
    chownSync(join(tmp, shared as string), 65534, 65534);
    const second = await serveDemo("second.db");
    expect(second.code).toBe(0);
    expect(readdirSync(tmp).filter((name) => name.startsWith("adreport-addon-")).length).toBe(2);
  });
});
