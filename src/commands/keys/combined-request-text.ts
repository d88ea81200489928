/**
 * One operator request for several accounts (`keys request ... --all-profiles --combined`): the same
 * request as request-text.ts, naming every account, as text for an e-mail or as one JSON object.
 */
import { operatorLetter, REQUEST_TYPES, type RequestType } from "./request-text";

export interface CombinedRequest {
  type: RequestType;
  accounts: string[];
  ips: string[];
  reason?: string | undefined;
}

export function combinedRequestRecord(request: CombinedRequest): object {
  return {
    accounts: request.accounts,
    request: REQUEST_TYPES[request.type].json,
    ips: request.ips,
    ...(request.reason ? { reason: request.reason } : {}),
  };
}

export function combinedRequestText(request: CombinedRequest): string {
  const { label } = REQUEST_TYPES[request.type];
  const accountList = request.accounts.map((account) => `  ${JSON.stringify(account)}`).join("\n");
  const ipList = request.ips.map((ip) => `  ${ip}`).join("\n");
  const body: Record<RequestType, string> = {
    new:
      `Please issue a new API key for the reporting interface for each of these accounts:\n\n${accountList}` +
      (request.ips.length > 0
        ? `\n\nThey will be used from these static outgoing IP addresses, to be whitelisted:\n\n${ipList}`
        : ""),
    rotate: `Please rotate the API key of the reporting interface for each of these accounts:\n\n${accountList}\n\nissue a new key and revoke the current one for each.`,
    "add-ip": `Please add these static outgoing IP addresses to the IP whitelist of the API key of each of these accounts:\n\n${ipList}\n\nAccounts:\n\n${accountList}`,
    "remove-ip": `Please remove these IP addresses from the IP whitelist of the API key of each of these accounts:\n\n${ipList}\n\nAccounts:\n\n${accountList}`,
  };
  // The body lists the accounts, one a line; the facts below do not list them a second time.
  return operatorLetter(`${label} for ${request.accounts.length} accounts`, body[request.type], [
    `Request: ${label}`,
    ...(request.ips.length > 0 ? [`IP addresses: ${request.ips.join(", ")}`] : []),
    ...(request.reason ? [`Reason: ${request.reason}`] : []),
  ]);
}
