/**
 * `adreport keys request TYPE --all-profiles`: the operator request for every profile, each naming the
 * profile's account setting (asked once on a terminal when missing): one request each (text separated by
 * a line of dashes, a JSON array, or NDJSON one a line), or one request naming every account with --combined.
 */
import { UsageError } from "../../core/errors";
import type { Context } from "../context";
import { selectProfiles } from "../shared/profile-selection";
import { recordFormat, recordsText } from "../shared/records";
import { readConfig } from "../shared/settings";
import { combinedRequestRecord, combinedRequestText } from "./combined-request-text";
import type { KeysRequestOptions } from "./flags";
import { accountsOf } from "./request-account";
import { requestIps } from "./request-ips";
import { type RequestType, requestRecord, requestText } from "./request-text";

const BETWEEN_REQUESTS = `${"-".repeat(72)}\n`;

export async function runKeysRequestAll(ctx: Context, type: RequestType, options: KeysRequestOptions): Promise<void> {
  if (options.account !== undefined) {
    throw new UsageError("--account and --all-profiles cannot be combined: each profile has its own account");
  }
  const ips = requestIps(type, options);
  const config = await readConfig(ctx);
  const accounts = await accountsOf(ctx, selectProfiles(Object.keys(config.data.profiles), undefined, true), config);
  const format = recordFormat(ctx, options);
  if (options.combined === true) {
    const request = { type, accounts, ips, reason: options.reason };
    const record = combinedRequestRecord(request);
    ctx.io.out.write(format === "human" ? combinedRequestText(request) : recordsText(format, [record], true));
    return;
  }
  const requests = accounts.map((account) => ({ type, account, ips, reason: options.reason }));
  ctx.io.out.write(
    format === "human"
      ? requests.map(requestText).join(BETWEEN_REQUESTS)
      : recordsText(format, requests.map(requestRecord)),
  );
}
