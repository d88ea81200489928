/**
 * A service of daily rows at the network edge (an undici MockAgent, mock-api.ts): for each day of the
 * range asked for, one row per campaign, with the counters `metricsOf` gives (change them between runs to
 * restate a day). Pages as the contract says.
 */
import type { mockAgent } from "./mock-api";

export type DayMetrics = (day: string, campaign: number) => { views: number; clicks: number };

const DAY_SECONDS = 86_400;

function dayNumber(text: string): number {
  return Date.parse(`${text.slice(0, 10)}T00:00:00Z`) / 1000 / DAY_SECONDS;
}

export function serveDays(mock: ReturnType<typeof mockAgent>, campaigns: number, metricsOf: () => DayMetrics) {
  mock.pool
    .intercept({ path: (p) => p.startsWith("/v1/report"), method: "GET" })
    .reply((opts) => {
      const request = mock.record(opts);
      const page = Number(request.params.get("page") ?? 1);
      const limit = Number(request.params.get("limit") ?? 100);
      const metrics = metricsOf();
      const rows = [];
      for (
        let day = dayNumber(request.params.get("from") ?? "");
        day <= dayNumber(request.params.get("to") ?? "");
        day++
      ) {
        const date = day * DAY_SECONDS;
        const text = new Date(date * 1000).toISOString().slice(0, 10);
        for (let id = 1; id <= campaigns; id++) {
          rows.push({ dimensions: { campaign_id: id, name: `Campaign ${id}`, date }, metrics: metrics(text, id) });
        }
      }
      return {
        statusCode: 200,
        data: JSON.stringify({
          meta: {
            granularity: "day",
            dimensions: ["campaign", "date"],
            metrics: ["views", "clicks"],
            total: rows.length,
            page,
            limit,
            has_more: page * limit < rows.length,
          },
          data: rows.slice((page - 1) * limit, page * limit),
        }),
        responseOptions: { headers: { "content-type": "application/json" } },
      };
    })
    .persist();
}
