/**
 * `adreport keys test --all`: every profile's key tested at once, one line per profile on stdout in name
 * order (`acme: ok`, `globex: IP not whitelisted: the service saw 203.0.113.7`), the hints on stderr, and
 * exit 0 only when every key works (otherwise as `report --all-profiles`: 6, or the code all share).
 */
import { accountEnvironments } from "../../config/account-env";
import { UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import type { Context } from "../context";
import { type AccountResult, failedAccount, okAccount, runVerdict } from "../shared/account-outcome";
import { lineWriter } from "../shared/line-writer";
import { runPool } from "../shared/pool";
import { selectProfiles } from "../shared/profile-selection";
import { readConfig } from "../shared/settings";
import type { KeysTestOptions } from "./command";
import { testKey } from "./key-test";

/** Tests in flight at once: each is one small request. */
const AT_ONCE = 8;

/** The same stderr, each distinct line once (the config file's permission warning, read per profile). */
function linesOnce(ctx: Context): Context {
  const seen = new Set<string>();
  const err = lineWriter((line) => {
    if (seen.has(line)) return;
    seen.add(line);
    ctx.io.err.write(`${line}\n`);
  });
  return { ...ctx, io: { ...ctx.io, err } };
}

function verdictLine(result: AccountResult): string {
  if (result.outcome === "ok") return `${result.profile}: ok\n`;
  const detail = (result.error ?? "").replace(`profile ${result.profile}: `, "");
  if (result.outcome === "IP not whitelisted" && result.seenAddress !== undefined) {
    return `${result.profile}: IP not whitelisted: the service saw ${result.seenAddress}\n`;
  }
  return `${result.profile}: ${result.outcome}: ${printable(detail)}\n`;
}

export async function runKeysTestAll(
  ctx: Context,
  profileName: string | undefined,
  options: KeysTestOptions,
): Promise<void> {
  if (profileName !== undefined) throw new UsageError("keys test: give a profile or --all, not both");
  const quiet = linesOnce(ctx);
  const { data } = await readConfig(quiet);
  const names = selectProfiles(Object.keys(data.profiles), undefined, true);
  const { envFor, warnings } = accountEnvironments(ctx.env, data, names);
  for (const warning of warnings) ctx.io.err.write(`adreport: warning: ${warning}\n`);
  const results: AccountResult[] = [];
  await runPool(names.length, AT_ONCE, async (index) => {
    const profile = names[index] as string;
    const started = performance.now();
    try {
      await testKey({ ...quiet, env: envFor(profile) }, profile, options);
      results[index] = okAccount(profile, 0, performance.now() - started);
    } catch (error) {
      results[index] = failedAccount(profile, error, performance.now() - started);
    }
  });
  ctx.io.out.write(results.map(verdictLine).join(""));
  const hints = [...new Set(results.flatMap((r) => (r.hint === undefined ? [] : [r.hint])))];
  for (const hint of hints) ctx.io.err.write(`hint: ${printable(hint)}\n`);
  const verdict = runVerdict(results);
  if (verdict) throw verdict;
}
