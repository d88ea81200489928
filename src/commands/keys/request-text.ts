/**
 * The request to send to the operator (docs/service.md §7): the account, the request type and,
 * for whitelist changes, the static outgoing IP addresses. As text to paste into an e-mail, or as JSON.
 */
export const REQUEST_TYPES = {
  new: { label: "new key", json: "new_key" },
  rotate: { label: "key rotation", json: "rotate_key" },
  "add-ip": { label: "add IP", json: "add_ip" },
  "remove-ip": { label: "remove IP", json: "remove_ip" },
} as const;

export type RequestType = keyof typeof REQUEST_TYPES;
export const REQUEST_TYPE_NAMES = Object.keys(REQUEST_TYPES) as RequestType[];

export interface OperatorRequest {
  type: RequestType;
  account: string;
  ips: string[];
  reason?: string | undefined;
}

/** The request as a record for a ticketing system (`--format json` / `ndjson`). */
export function requestRecord(request: OperatorRequest): object {
  return {
    account: request.account,
    request: REQUEST_TYPES[request.type].json,
    ips: request.ips,
    ...(request.reason ? { reason: request.reason } : {}),
  };
}

export function requestText(request: OperatorRequest): string {
  const { label } = REQUEST_TYPES[request.type];
  const account = JSON.stringify(request.account);
  const ipList = request.ips.map((ip) => `  ${ip}`).join("\n");
  const body: Record<RequestType, string> = {
    new:
      `Please issue a new API key for the reporting interface for the account ${account}.` +
      (request.ips.length > 0
        ? `\nIt will be used from these static outgoing IP addresses, to be whitelisted:\n\n${ipList}`
        : ""),
    rotate: `Please rotate the API key of the reporting interface for the account ${account}:\nissue a new key and revoke the current one.`,
    "add-ip": `Please add these static outgoing IP addresses to the IP whitelist of the API key of the account ${account}:\n\n${ipList}`,
    "remove-ip": `Please remove these IP addresses from the IP whitelist of the API key of the account ${account}:\n\n${ipList}`,
  };
  return operatorLetter(`${label} for account ${account}`, body[request.type], [
    `Account: ${request.account}`,
    `Request: ${label}`,
    ...(request.ips.length > 0 ? [`IP addresses: ${request.ips.join(", ")}`] : []),
    ...(request.reason ? [`Reason: ${request.reason}`] : []),
  ]);
}

/** The e-mail around a request: subject, greeting, what is asked, the facts line by line, thanks. */
export function operatorLetter(subject: string, body: string, facts: string[]): string {
  return [`Subject: Reporting API: ${subject}`, "", "Hello,", "", body, "", ...facts, "", "Thank you.", ""].join("\n");
}
