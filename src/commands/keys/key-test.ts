/**
 * `adreport keys test`: one cheap request with a profile's key (today's total views) and, when it fails, a
 * verdict the user can act on: the key refused, this host's address not whitelisted, the service unreachable.
 */
import { AccessRefusedError } from "../../api";
import { requireApiKey } from "../../config/resolve";
import { encodeReportQuery } from "../../contract";
import { AuthError, ForbiddenError, UnavailableError } from "../../core/errors";
import { deadline } from "../../engine/deadline";
import { withCliHints } from "../../engine/hints";
import { reportApiFor } from "../../engine/report-api";
import { resolveWhen } from "../../engine/when";
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
  const who =
    settings.profile.value === undefined
      ? `the key from ${settings["api-key"].source}`
      : `profile ${settings.profile.value}`;
  const baseUrl = settings["base-url"].value;
  const api = reportApiFor(ctx, settings, key, { retries: 1 });
  const limit = deadline(settings["max-time"].value, () => "no answer had come");
  const today = resolveWhen("today", ctx.now(), "--from");
  // keys request finds the profile's account (the name the operator knows), or asks for it once.
  const whose =
    settings.profile.value === undefined ? '--account "<account name>"' : `--profile ${settings.profile.value}`;
  try {
    await api.getReportPage(
      encodeReportQuery({ from: today, to: today, metrics: ["views"], dimensions: [] }, 1, 1),
      limit.signal,
    );
  } catch (caught) {
    const error = withCliHints(caught);
    if (error instanceof AuthError) {
      throw new AuthError(
        `${who}: the service refused the key at ${baseUrl}: it is missing, invalid or expired (${error.message})`,
        {
          cause: caught,
          hint: `get a new key or a rotation from the operator: adreport keys request rotate ${whose}`,
        },
      );
    }
    if (error instanceof ForbiddenError) {
      throw new ForbiddenError(
        `${who}: the key is valid, but this host's outgoing IP is not on its whitelist (${error.message})`,
        {
          cause: caught,
          hint: `ask the operator to whitelist this host's static IP: adreport keys request add-ip ${whose} --ip ${(caught instanceof AccessRefusedError ? caught.address : undefined) ?? "<this host's IP>"}`,
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
