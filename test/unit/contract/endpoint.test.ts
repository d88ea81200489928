/** The base URL check that settings and the client share, and the report endpoint under it. */
import { describe, expect, it } from "vitest";
import { parseBaseUrl, REPORT_PATH, reportEndpoint, sameService } from "../../../src/contract";

describe("parseBaseUrl", () => {
  it.each([
    ["reports.example.com", "not-absolute"],
    ["ftp://reports.example.com", "not-http"],
    ["https://user:secret@reports.example.com", "has-credentials"],
    ["https://token@reports.example.com", "has-credentials"],
  ])("refuses %s (%s)", (text, problem) => {
    expect(parseBaseUrl(text)).toEqual({ ok: false, problem });
  });

  it("accepts http(s) URLs and drops their query and fragment", () => {
    const checked = parseBaseUrl("https://reports.example.com/api/?x=1#top");
    expect(checked.ok && checked.url.href).toBe("https://reports.example.com/api/");
  });
});

describe("reportEndpoint", () => {
  it.each([
    ["http://127.0.0.1:8080", `http://127.0.0.1:8080${REPORT_PATH}`],
    ["https://reports.example.com/api/", `https://reports.example.com/api${REPORT_PATH}`],
    ["https://reports.example.com/api", `https://reports.example.com/api${REPORT_PATH}`],
  ])("keeps the path prefix of %s", (base, endpoint) => {
    expect(reportEndpoint(new URL(base)).href).toBe(endpoint);
  });
});

describe("sameService", () => {
  it.each([
    ["HTTP://Host:80/", "http://host"],
    ["https://Reports.Example.com:443/api/", "https://reports.example.com/api"],
    ["https://reports.example.com/", "https://reports.example.com"],
    ["not a url/", "not a url"],
  ])("%s and %s are one service", (a, b) => {
    expect(sameService(a, b)).toBe(true);
  });

  it.each([
    ["http://host:8080", "http://host"],
    ["https://host", "http://host"],
    ["https://host/api", "https://host"],
  ])("%s and %s are two", (a, b) => {
    expect(sameService(a, b)).toBe(false);
  });
});
