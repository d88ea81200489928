/**
 * `keys` and `config` commands in this process, each against a config folder of its own
 * (ADREPORT_CONFIG_DIR), with a check after the test file that no output showed the secret key: only
 * `keys show --reveal` may print it, alone on stdout.
 */
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { type InProcessOptions, runInProcess } from "./run-cli-in-process";
import type { CliResult } from "./spawn-cli";
import { tempDir } from "./temp";

/** The harness's options; `env` is added to ADREPORT_CONFIG_DIR. */
export type ConfigCliOptions = InProcessOptions;

export function configCli(secret: string) {
  const root = tempDir();
  const outputs: CliResult[] = [];
  let folders = 0;
  afterAll(() => {
    for (const output of outputs) {
      if (!output.stdout.startsWith(`${secret}\n`)) expect(output.stdout).not.toContain(secret);
      expect(output.stderr).not.toContain(secret);
      expect(output.stderr).not.toContain(secret.slice(8, -4));
    }
  });
  return {
    /** A config folder path not used before; nothing is created. */
    newConfigDir(): string {
      folders += 1;
      return join(root, `config-${folders}`);
    },
    async cli(args: string[], configDir: string, options: ConfigCliOptions = {}): Promise<CliResult> {
      const result = await runInProcess(args, { ...options, env: { ADREPORT_CONFIG_DIR: configDir, ...options.env } });
      outputs.push(result);
      return result;
    },
  };
}
