/**
 * `report --all-profiles` as only a process shows it: SIGTERM while accounts wait in the spool ends the
 * process with 130, no output file and no temporary folder left. The services run in this test process.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { configDirWith } from "../helpers/config";
import { SMALL_DEMO, serveDatabase, startTestService } from "../helpers/serve";
import { cliCommand } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const service = await startTestService({
  demo: { ...SMALL_DEMO, advertisers: 2 },
  keys: [
    { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
    { advertiser: "Globex, Inc.", ips: ["127.0.0.1"] },
  ],
});
const slow = await serveDatabase(service.dbPath, { faults: "delay:2s" });
const [ACME, GLOBEX] = service.keys as [string, string];

it("SIGTERM: exit 130, the output file and the spool gone", { tags: ["binary"] }, async () => {
  const dir = tempDir();
  const spool = tempDir("adreport-spool-");
  const config = configDirWith(
    {},
    {
      acme: { "api-key": ACME, "base-url": slow.url },
      globex: { "api-key": GLOBEX, "base-url": service.url },
    },
  );
  const [command, argv] = cliCommand([
    "report",
    "--all-profiles",
    "--from",
    "2026-10-01",
    "--to",
    "2026-10-31",
    "--dims",
    "campaign",
    "-o",
    "all.csv",
  ]);
  const child = spawn(command, argv, {
    cwd: dir,
    env: { ...process.env, ADREPORT_CONFIG_DIR: config, TMPDIR: spool },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  try {
    // globex has ended and waits in the spool while acme's answer is held back.
    const spooled = () => readdirSync(spool).flatMap((folder) => readdirSync(join(spool, folder)));
    await expect.poll(spooled, { timeout: 20_000, interval: 50 }).toContain("account-1.json");
    child.kill("SIGTERM");
    expect(await exited, stderr).toBe(130);
    expect(stderr).toContain("adreport: interrupted; all.csv was left as it was");
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(spool)).toEqual([]);
  } finally {
    child.kill("SIGKILL");
  }
});

it("a reader that closes the pipe early (`| head -1`): the spool is gone all the same", async () => {
  const spool = tempDir("adreport-spool-");
  const config = configDirWith(
    {},
    {
      acme: { "api-key": ACME, "base-url": slow.url },
      globex: { "api-key": GLOBEX, "base-url": service.url },
    },
  );
  const [command, argv] = cliCommand([
    "report",
    "--all-profiles",
    "--from",
    "2026-10-01",
    "--to",
    "2026-10-31",
    "--dims",
    "campaign",
    "-f",
    "csv",
  ]);
  const child = spawn(command, argv, {
    env: { ...process.env, ADREPORT_CONFIG_DIR: config, TMPDIR: spool },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  try {
    const spooled = () => readdirSync(spool).flatMap((folder) => readdirSync(join(spool, folder)));
    await expect.poll(spooled, { timeout: 20_000, interval: 50 }).toContain("account-1.json");
    // The reader goes away before acme's rows come: their first write meets a closed pipe.
    child.stdout.destroy();
    expect(await exited, stderr).toBe(0);
    expect(readdirSync(spool)).toEqual([]);
  } finally {
    child.kill("SIGKILL");
  }
});
