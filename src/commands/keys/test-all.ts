/**
 * `adreport keys test --all-profiles`: every profile's key tested at once, one line per profile on stdout in
 * name order (`acme: ok`, `globex: IP not whitelisted: the service saw 203.0.113.7`) or a record each with
 * --format json/ndjson, the hints on stderr, and exit 0 only when every key works (otherwise as
 * `report --all-profiles`: 6, or the code all share). Also the record of one profile's test.
 */
import { accountEnvironments } from "../../config/account-env";
import { resolveSettings } from "../../config/resolve";
import { UsageError } from "../../core/errors";
import { runPool } from "../../core/pool";
import { printable } from "../../core/printable";
import type { Context } from "../context";
import { type AccountResult, failedAccount, okAccount, runVerdict } from "../shared/account-outcome";
import { lineWriter } from "../shared/line-writer";
import { selectProfiles } from "../shared/profile-selection";
import { recordFormat, recordsText } from "../shared/records";
import { configFile, readConfig } from "../shared/settings";
import type { KeysTestOptions } from "./flags";
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

/** A verdict as a record: snake_case, every field present (null when it does not apply). */
function verdictRecord(result: AccountResult, profile: string | null = result.profile): object {
  const error = result.error === undefined ? null : result.error.replace(`profile ${result.profile}: `, "");
  return { profile, outcome: result.outcome, error, seen_address: result.seenAddress ?? null };
}

/** The profile a test without --all-profiles uses (null for a key from ADREPORT_API_KEY alone). */
async function profileInUse(ctx: Context, profileName: string | undefined): Promise<string | null> {
  try {
    const file = configFile(ctx);
    const layers = { flags: { profile: profileName }, env: ctx.env, file: await file.read(), filePath: file.path };
    return resolveSettings(layers).profile.value ?? null;
  } catch {
    // testKey reads the same file and says what is wrong with it.
    return profileName ?? null;
  }
}

/** `keys test [profile] --format json|ndjson`: the one verdict as a record; a failure keeps its message and code. */
export async function runKeysTestOne(
  ctx: Context,
  profileName: string | undefined,
  options: KeysTestOptions,
  format: "json" | "ndjson",
): Promise<void> {
  const profile = await profileInUse(ctx, profileName);
  let result: AccountResult;
  try {
    await testKey(ctx, profileName, options);
    result = okAccount(profile ?? "", 0, 0);
  } catch (error) {
    result = failedAccount(profile ?? "", error, 0);
    ctx.io.out.write(recordsText(format, [verdictRecord(result, profile)], true));
    throw error;
  }
  ctx.io.out.write(recordsText(format, [verdictRecord(result, profile)], true));
}

export async function runKeysTestAll(
  ctx: Context,
  profileName: string | undefined,
  options: KeysTestOptions,
): Promise<void> {
  if (profileName !== undefined) throw new UsageError("keys test: give a profile or --all-profiles, not both");
  const format = recordFormat(ctx, options);
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
  ctx.io.out.write(
    format === "human"
      ? results.map(verdictLine).join("")
      : recordsText(
          format,
          results.map((result) => verdictRecord(result)),
        ),
  );
  const hints = [...new Set(results.flatMap((r) => (r.hint === undefined ? [] : [r.hint])))];
  for (const hint of hints) ctx.io.err.write(`hint: ${printable(hint)}\n`);
  const verdict = runVerdict(results);
  if (verdict) throw verdict;
}
