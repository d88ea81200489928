/**
 * A page or id beyond 2^53 - 1 over real HTTP: `serve` refuses it with the contract's 400 (it answered
 * page=999999999999999999999 as page 9007199254740991), and `report` refuses it before sending anything.
 */
import { describe, expect, it } from "vitest";
import { httpGet } from "../helpers/http";
import { startLocalServer } from "../helpers/local-server";
import { openApiChecker } from "../helpers/openapi-check";
import { runInProcess } from "../helpers/run-cli-in-process";
import { startTestService } from "../helpers/serve";

const service = await startTestService({ keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }] });
const [KEY] = service.keys as [string];
const QUERY = "from=2026-10-01&to=2026-10-07&metrics=views";

describe("whole numbers beyond 2^53 - 1", () => {
  it.each([
    ["page", "999999999999999999999"],
    ["page", "9007199254740992"],
    ["campaign_id", "99999999999999999999"],
    ["ad_id", "9007199254740993"],
  ])("serve: %s=%s is 400 invalid_parameter naming the bound", async (name, value) => {
    const openApi = await openApiChecker((await httpGet(`${service.url}/openapi.json`)).json);
    const result = await httpGet(`${service.url}/v1/report?${QUERY}&${name}=${value}`, { key: KEY });
    expect(result.status).toBe(400);
    expect(result.json).toEqual({
      error: {
        status: 400,
        code: "invalid_parameter",
        param: name,
        message: `${name}: "${value}" is more than 9007199254740991 (2^53 - 1)`,
      },
    });
    expect(openApi.problems("GET", "/v1/report", result)).toEqual([]);
  });

  it("serve: the largest page is answered as itself (past the end: no rows)", async () => {
    const result = await httpGet(`${service.url}/v1/report?${QUERY}&page=9007199254740991`, { key: KEY });
    expect(result.status).toBe(200);
    expect((result.json as { meta: { page: number }; data: unknown[] }).meta.page).toBe(9007199254740991);
    expect((result.json as { data: unknown[] }).data).toEqual([]);
  });

  it("report --campaign beyond the bound: exit 2 before any request", async () => {
    const untouched = await startLocalServer((_req, res) => res.end());
    const result = await runInProcess(
      ["report", "--from", "2026-10-01", "--to", "2026-10-07", "--campaign", "99999999999999999999"],
      { env: { ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: untouched.url } },
    );
    expect(result.stderr).toBe(
      'adreport: --campaign: "99999999999999999999" is more than 9007199254740991 (2^53 - 1)\n',
    );
    expect(result.code).toBe(2);
    expect(untouched.count()).toBe(0);
  });
});
