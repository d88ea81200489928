/** The spool folder of a run over several accounts killed with SIGKILL is removed by the next such run. */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spoolFolder } from "../../../../src/engine/accounts/spool";
import { tempDir } from "../../../helpers/temp";

describe("spoolFolder", () => {
  it("is named with its pid; folders of runs that are gone are removed, a live run's and others are kept", async () => {
    const tmp = tempDir();
    const dead = join(tmp, "adreport-accounts-999999999-Ab12Cd");
    const live = join(tmp, `adreport-accounts-${process.pid}-Zz99Yy`);
    const other = join(tmp, "adreport-accounts-k3J9aa"); // an earlier adreport's: no pid to judge by
    for (const folder of [dead, live, other]) {
      mkdirSync(folder);
      writeFileSync(join(folder, "account-0.json"), '{"meta":{},"data":[\n');
    }
    const spool = await spoolFolder({ TMPDIR: tmp }, tmp);
    try {
      expect(spool.path).toMatch(new RegExp(`/adreport-accounts-${process.pid}-[A-Za-z0-9]{6}$`));
      expect(existsSync(dead)).toBe(false);
      expect(existsSync(live)).toBe(true);
      expect(existsSync(other)).toBe(true);
    } finally {
      await spool.remove();
    }
    expect(readdirSync(tmp).sort()).toEqual(
      ["adreport-accounts-k3J9aa", `adreport-accounts-${process.pid}-Zz99Yy`].sort(),
    );
  });
});
