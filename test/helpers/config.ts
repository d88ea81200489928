/** A config folder written directly, as the file format has it: for settings a test needs in place. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./temp";

/** A fresh config folder holding `settings` and `profiles`; pass it as ADREPORT_CONFIG_DIR. */
export function configDirWith(
  settings: Record<string, unknown>,
  profiles: Record<string, Record<string, unknown>> = {},
): string {
  const dir = tempDir("adreport-config-");
  writeFileSync(join(dir, "config.json"), JSON.stringify({ settings, profiles }), { mode: 0o600 });
  return dir;
}
