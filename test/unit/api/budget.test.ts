/**
 * One budget of retries + 1 requests per page, whatever fails, each retry after the backoff: ReportApi
 * against real local servers that break answers after their headers, with the waits recorded.
 */
import { describe, expect, it } from "vitest";
import { ReportApi } from "../../../src/api/client";
import { UnavailableError } from "../../../src/core/errors";
import { FAULTS, type Fault, startFakeService } from "../../helpers/fake-service";

const PARAMS = { from: "2026-11-01", to: "2026-11-07", metrics: "views", page: "1", limit: "10" };

function client(url: string) {
  const waits: number[] = [];
  const api = new ReportApi({
    baseUrl: url,
    apiKey: "adr_budget-test-key",
    userAgent: "adreport/test",
    // Bounds the faults that never end (hang, trickle: a byte every 100 ms); a good answer on loopback is
    // far quicker.
    timeoutMs: 250,
    retries: 3,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
  });
  return { api, waits };
}

describe.each(FAULTS)("a page whose every answer fails with %s", (fault: Fault) => {
  it("costs exactly retries + 1 requests, with the backoff before each retry", async () => {
    const service = await startFakeService({ rows: 10, fault: () => fault });
    const { api, waits } = client(service.url);
    try {
      const error = await api.receiveReportPage(PARAMS).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnavailableError);
      expect((error as Error).message).toContain("(page 1: gave up after 4 attempts)");
      expect(service.total()).toBe(4);
      expect(waits).toEqual([125, 250, 500]);
    } finally {
      await api.close();
      await service.close();
    }
  });
});

describe("a page read after its headers", () => {
  it("keeps one budget across failures before and after the headers", async () => {
    const kinds: Array<Fault | undefined> = ["hang", "reset-body", "not-json", undefined];
    const service = await startFakeService({ rows: 10, fault: (r) => kinds[r.attempt - 1] });
    const { api, waits } = client(service.url);
    try {
      const page = await api.receiveReportPage(PARAMS);
      expect(page.page.data).toHaveLength(10);
      expect(service.total()).toBe(4);
      expect(waits).toEqual([125, 250, 500]);
    } finally {
      await api.close();
      await service.close();
    }
  });
});
