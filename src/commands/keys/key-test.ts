/**
 * `adreport keys test`: one cheap request with a profile's key (today's total views) and, when it fails, a
 * verdict the user can act on: the key refused, this host's address not whitelisted, the service unreachable.
 */
import { AccessRefusedError } from "../../api";
import { keyOwnerText } from "../../config/credentials";
import { keyOwner, requireApiKey } from "../../config/resolve";
import { encodeReportQuery } from "../../contract";
import { AuthError, ForbiddenError, UnavailableError } from "../../core/errors";
import { resolveWhen } from "../../engine/plan/when";
import { deadline } from "../../engine/run/deadline";
import { keyRefusedHint, notWhitelistedHint, withCliHints } from "../../engine/run/hints";
import { reportApiFor } from "../../engine/run/report-api";
import type { Context } from "../context";
import { loadSettings } from "../shared/settings";
import type { KeysTestOptions } from "./flags";

/** Resolves with who was tested and where when the key works; rejects with the verdict otherwise. */
export async function testKey(
  ctx: Context,
  profileName: string | undefined,
  options: KeysTestOptions,
): Promise<{ who: string; baseUrl: string }> {
  const settings = await loadSettings(ctx, {
    profile: profileName,
    "base-url": options.baseUrl,
    timeout: options.timeout,
    "max-time": options.maxTime,
  });
  const key = requireApiKey(settings);
  // Where the tested key came from: a profile, or ADREPORT_API_KEY (which belongs to none).
  const owner = keyOwner(settings);
  const who = keyOwnerText(owner);
  const baseUrl = settings["base-url"].value;
  const api = reportApiFor(ctx, settings, key, { retries: 1 });
  const limit = deadline(settings["max-time"].value, () => "no answer had come");
  const today = resolveWhen("today", ctx.now(), "--from");
  try {
    await api.getReportPage(
      encodeReportQuery({ from: today, to: today, metrics: ["views"], dimensions: [] }, 1, 1),
      limit.signal,
    );
  } catch (caught) {
    const error = withCliHints(caught, owner);
    if (error instanceof AuthError) {
      throw new AuthError(
        `${who}: the service refused the key at ${baseUrl}: it is missing, invalid or expired (${error.message})`,
        {
          cause: caught,
          hint: keyRefusedHint(owner),
        },
      );
    }
    if (error instanceof ForbiddenError) {
      throw new ForbiddenError(
        `${who}: the key is valid, but this host's outgoing IP is not on its whitelist (${error.message})`,
        {
          cause: caught,
          hint: notWhitelistedHint(owner, caught instanceof AccessRefusedError ? caught.address : undefined),
        },
      );
    }
    if (error instanceof UnavailableError) {
      throw new UnavailableError(`${who}: could not test the key: ${error.message}`, {
        cause: error,
        hint: error.hint ?? "check the network and the base URL (--base-url, ADREPORT_BASE_URL or the profile)",
      });
    }
    throw error;
  } finally {
    limit.clear();
    await api.close();
  }
  return { who, baseUrl };
}
