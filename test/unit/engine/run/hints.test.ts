/**
 * What a user reads when the service refuses or cannot be reached: the API's typed errors (from ReportApi
 * against a MockAgent, or a real refused connection on loopback) with the hints the commands add.
 */
import { describe, expect, it } from "vitest";
import { UnmergeableRowsError } from "../../../../src/api";
import { ReportApi } from "../../../../src/api/client";
import type { KeyOwner } from "../../../../src/config/credentials";
import { AuthError, ForbiddenError, UnavailableError, UsageError } from "../../../../src/core/errors";
import { withCliHints } from "../../../../src/engine/run/hints";
import { KEY, mockAgent, ORIGIN } from "../../../helpers/mock-api";

const PARAMS = { from: "2026-11-01", to: "2026-11-07", metrics: "views", page: "1", limit: "1000" };
const CHECK_BASE_URL = "check the base URL (--base-url, ADREPORT_BASE_URL or the profile)";
const ACME: KeyOwner = { kind: "profile", profile: "acme" };

function client(options: Partial<ConstructorParameters<typeof ReportApi>[0]>) {
  return new ReportApi({
    baseUrl: ORIGIN,
    apiKey: KEY,
    userAgent: "adreport/test",
    timeoutMs: 1000,
    retries: 0,
    sleep: async () => undefined,
    ...options,
  });
}

/** The error one answer of the MockAgent gives, as a command shows it. */
async function shownFor(
  answer: { status: number; body?: string; headers?: Record<string, string> } | { error: Error },
  options: Partial<ConstructorParameters<typeof ReportApi>[0]> = {},
  owner: KeyOwner = ACME,
): Promise<unknown> {
  const mock = mockAgent();
  const scope = mock.pool.intercept({ path: (p) => p.includes("/v1/report?") });
  if ("error" in answer) scope.replyWithError(answer.error);
  else scope.reply(answer.status, answer.body ?? "", { headers: answer.headers ?? {} });
  const error = await client({ dispatcher: mock.agent, ...options })
    .getReportPage(PARAMS)
    .catch((e: unknown) => e);
  mock.agent.assertNoPendingInterceptors();
  return withCliHints(error, owner);
}

function coded(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe("the hints of the service's refusals", () => {
  const INVALID = '{"error":{"status":401,"code":"invalid_key","message":"the API key is not valid"}}';
  const NOT_ALLOWED =
    '{"error":{"status":403,"code":"ip_not_allowed","message":"requests from 198.51.100.7 are not allowed"}}';

  it("401 for a profile's key: the rotation of that profile's key", async () => {
    const error = await shownFor({ status: 401, body: INVALID });
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({
      message: "the service refused the key (401): the API key is not valid",
      hint: "ask the operator for a new key or a rotation: adreport keys request rotate --profile acme",
    });
  });

  it.each([
    [
      { kind: "environment" },
      "ADREPORT_API_KEY holds the refused key and belongs to no profile: correct it, or unset it to use a stored profile's key (adreport keys list)",
    ],
    [
      { kind: "flag" },
      "the key given with --api-key was refused: correct it, or use a stored profile's key (adreport keys list)",
    ],
  ] as const)("401 for a key of no profile (%j) offers no profile's rotation", async (owner, hint) => {
    const error = await shownFor({ status: 401, body: INVALID }, {}, owner);
    expect(error).toMatchObject({ hint });
  });

  it("403 for the address names the profile and the address the service saw in the request to make", async () => {
    const error = await shownFor({ status: 403, body: NOT_ALLOWED });
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({
      message: "the service refused access (403): requests from 198.51.100.7 are not allowed",
      hint: "ask the operator to whitelist this host's static IP: adreport keys request add-ip --profile acme --ip 198.51.100.7",
    });
  });

  it("403 for the key in ADREPORT_API_KEY asks for the account, the one thing adreport cannot know", async () => {
    const error = await shownFor({ status: 403, body: NOT_ALLOWED }, {}, { kind: "environment" });
    expect(error).toMatchObject({
      hint: "ask the operator to whitelist this host's static IP 198.51.100.7 for the key in ADREPORT_API_KEY, naming your account (the letter: adreport keys request add-ip --help)",
    });
  });

  it("403 without a code is taken for the address; with none named, no command that would not run", async () => {
    const error = await shownFor({ status: 403 });
    expect(error).toMatchObject({
      message: "the service refused access (403): HTTP 403",
      hint: "ask the operator to whitelist this host's static outgoing IP (the service did not say which address it saw; once you know it: adreport keys request add-ip --help)",
    });
  });

  it("403 for ownership keeps the API's own hint", async () => {
    const error = await shownFor({
      status: 403,
      body: '{"error":{"status":403,"code":"forbidden","message":"campaign 9"}}',
    });
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({
      message: "the service refused access (403): campaign 9",
      hint: "the campaign or ad named is not owned by this key's advertiser",
    });
  });

  it("404 points at the base URL's settings", async () => {
    const error = await shownFor({ status: 404 }, { baseUrl: `${ORIGIN}/api/` });
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({
      message: "the service has no report endpoint at http://reports.test/api/ (404)",
      hint: CHECK_BASE_URL,
    });
  });

  it("a redirect says the key is not sent on", async () => {
    const error = await shownFor({ status: 308, headers: { location: "https://elsewhere.test/v1/report" } });
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({
      message: "the service redirects to https://elsewhere.test/v1/report (308)",
      hint: "use that address as the base URL; adreport does not follow redirects with your key",
    });
  });

  it("a body over the bound names the setting and the page size", async () => {
    const body = "x".repeat(3 * 1024 * 1024);
    const error = await shownFor({ status: 200, body }, { maxPageBytes: 1024 * 1024 });
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({
      message: "the answer to page 1 is larger than the 1 MB bound (max-page-mb); stopped reading at 3 MB",
      hint: "a page that large is unusual: lower --page-size, or raise the bound (adreport config set max-page-mb 256)",
    });
  });
});

describe("the hints of connections that fail", () => {
  it("a refused connection points at the base URL's settings", async () => {
    const error = await shownFor({ error: coded("connect ECONNREFUSED", "ECONNREFUSED") });
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({
      message: "cannot reach reports.test: connection refused (is the service running at that address?)",
      hint: CHECK_BASE_URL,
    });
  });

  it("a certificate of an unknown authority points at NODE_EXTRA_CA_CERTS", async () => {
    const error = await shownFor({ error: coded("self-signed", "SELF_SIGNED_CERT_IN_CHAIN") });
    expect(error).toMatchObject({
      message:
        "cannot reach reports.test: its TLS certificate is not signed by an authority this machine trusts (SELF_SIGNED_CERT_IN_CHAIN)",
      hint: "if this network uses a private certificate authority (a TLS-inspecting proxy, say), point NODE_EXTRA_CA_CERTS at its certificate in PEM form: NODE_EXTRA_CA_CERTS=/path/to/ca.pem adreport ...",
    });
  });

  it("an expired certificate keeps the API's own hint", async () => {
    const error = await shownFor({ error: coded("expired", "CERT_HAS_EXPIRED") });
    expect(error).toMatchObject({ hint: "the service's certificate must be renewed by its operator" });
  });

  it("behind a proxy that refuses, the proxy is named first", async () => {
    const api = client({ retries: 1, route: { setting: "http://127.0.0.1:1", env: {} } });
    try {
      const error = withCliHints(await api.getReportPage(PARAMS).catch((e: unknown) => e), ACME);
      expect(error).toBeInstanceOf(UnavailableError);
      expect(error).toMatchObject({
        message:
          "cannot reach reports.test: connection refused (is the service running at that address?) (page 1: gave up after 2 attempts)",
        hint: "requests go through the proxy http://127.0.0.1:1 (from the proxy setting); check it, or exclude this host with NO_PROXY",
      });
    } finally {
      await api.close();
    }
  });
});

describe("the hint of rows that cannot be merged", () => {
  it("points at asking for 90 days at a time", () => {
    const error = withCliHints(new UnmergeableRowsError("the service's rows are not in entity-then-date order"), ACME);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ hint: "ask for at most 90 days at a time (--no-split refuses longer ranges)" });
  });

  it("leaves any other error as it is", () => {
    const other = new UsageError("no");
    expect(withCliHints(other, ACME)).toBe(other);
  });
});
