/**
 * `serve --cors ORIGIN` from a real browser: Debian's chromium, headless, driven by playwright-core. A page
 * served from a listed origin fetches a report with an Authorization header (chromium sends the preflight
 * itself) and reads the answer, an error's body and its WWW-Authenticate header; the same page from an origin
 * not listed (localhost instead of 127.0.0.1) cannot read anything. Where chromium is missing the cases skip
 * (or fail, where ADREPORT_TEST_REQUIRE names chromium).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { chromiumMissing, chromiumPath, skipMissing } from "../helpers/required-tools";
import { startTestService } from "../helpers/serve";
import { tempDir } from "../helpers/temp";

const NO_CHROMIUM = chromiumMissing();

const pages = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>app</title>");
});
await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
const pagePort = (pages.address() as AddressInfo).port;
const service = await startTestService({
  keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }],
  serve: { corsOrigins: [`http://127.0.0.1:${pagePort}`] },
});
const [KEY] = service.keys as [string];
const REPORT = `${service.url}/v1/report?from=2026-10-25&to=2026-10-31&metrics=views&dimensions=campaign`;

let browser: BrowserContext | undefined;
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => pages.close(resolve));
});

interface Fetched {
  status?: number;
  campaigns?: number;
  code?: string;
  authenticate?: string | null;
  error?: string;
}

/** Opens the page at `origin` and fetches `url` from it with the key (or a wrong one). */
async function fetchFrom(origin: string, url: string, key: string): Promise<Fetched> {
  browser ??= await chromium.launchPersistentContext(tempDir("adreport-chromium-"), {
    executablePath: chromiumPath(),
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/`);
    return (await page.evaluate(
      async ([target, bearer]) => {
        try {
          const answer = await fetch(target as string, { headers: { Authorization: `Bearer ${bearer}` } });
          const body = (await answer.json()) as { data?: unknown[]; error?: { code: string } };
          return {
            status: answer.status,
            campaigns: body.data?.length,
            code: body.error?.code,
            authenticate: answer.headers.get("www-authenticate"),
          };
        } catch (error) {
          return { error: String(error) };
        }
      },
      [url, key],
    )) as Fetched;
  } finally {
    await page.close();
  }
}

describe("serve --cors in chromium", () => {
  it("lets a page from a listed origin read a report and an error with its headers", async (context) => {
    if (NO_CHROMIUM) skipMissing(context, "chromium", NO_CHROMIUM);
    const origin = `http://127.0.0.1:${pagePort}`;
    const ok = await fetchFrom(origin, REPORT, KEY);
    expect(ok).toMatchObject({ status: 200 });
    expect(ok.campaigns).toBeGreaterThan(0);
    const refused = await fetchFrom(origin, REPORT, "adr_not-a-key");
    expect(refused).toMatchObject({ status: 401, code: "invalid_key", authenticate: "Bearer" });
  });

  it("keeps the answer from a page whose origin is not listed", async (context) => {
    if (NO_CHROMIUM) skipMissing(context, "chromium", NO_CHROMIUM);
    const blocked = await fetchFrom(`http://localhost:${pagePort}`, REPORT, KEY);
    expect(blocked.error).toMatch(/TypeError: Failed to fetch/);
  });
});
