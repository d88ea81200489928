/**
 * One self-contained HTML page: the query and export time, a chart per metric (lines over dates, one per
 * entity: the top 10 by the first metric and the rest summed as "other"; bars when there is no date; with
 * --compare the earlier period on the same chart, dotted or paler), and the table, sortable by a click on
 * a column. Chart.js and the page's script are inline; the page fetches
 * nothing. The table's rows are written as they come; what the charts need is held until the end, summed
 * per entity and date (the top entities are known only then).
 * Names stay data: they go into the page as JSON inside <script type="application/json"> and reach the
 * screen through textContent or the canvas; the header's text is HTML-escaped.
 */
import { roundToMicros } from "../contract";
import { metricKind } from "../core/metric-kind";
import { writeChunk } from "../io/write";
import { type Columns, cellsOf, columnsOf, peekFirstRow } from "./columns";
import type { Formatter } from "./formatter";
import { chartLibrary } from "./html/chart-library";
import { jsonInScript } from "./html/escape";
import { PAGE_END, pageStart, scriptElement } from "./html/page";
import { PAGE_SCRIPT } from "./html/page-script";
import { PictureCollector } from "./picture/collect";
import { chartedMetrics } from "./picture/compared-metrics";
import { metricValue } from "./picture/tally";

/** Series drawn per chart besides "other". */
const HTML_TOP_ENTITIES = 10;

function dataElement(id: string, json: string): string {
  return scriptElement(json, ` type="application/json" id="${id}"`);
}

/** The date alone, as the table writes it: the charts' x axis, whether or not --fields shows it. */
function dateColumn(columns: Columns): Columns {
  return { ...columns, dimensionKeys: ["date"], metrics: [], order: [{ name: "date", metric: false }] };
}

/** Chart.js as an inline script: a `</script` inside it would end the element early. */
function libraryElement(): string {
  return scriptElement(chartLibrary().replace(/<\/script/gi, "<\\/script"));
}

export const htmlFormatter: Formatter = {
  async write(report, out, options) {
    const { first, all } = await peekFirstRow(report.pages);
    // The table shows the columns --fields chose; the charts tell entities apart by all their keys.
    const columns = columnsOf(report.meta, first, report.fields);
    const whole = columnsOf(report.meta, first);
    const charted = chartedMetrics(report.meta, columns.metrics);
    const collector = new PictureCollector(
      { ...whole, metrics: charted.collected },
      { top: HTML_TOP_ENTITIES, other: true },
    );
    const exportedAt = (options.exportedAt ?? new Date()).toISOString();
    await writeChunk(out, pageStart(options.query ?? "adreport report", exportedAt));
    // In the order of the cells. Ids and dates are kept on one line in the table; names may wrap.
    const columnList = columns.order.map(({ name, metric }) =>
      metric ? { name, kind: metricKind(name) } : { name, kind: "text", key: name === "date" || name.endsWith("_id") },
    );
    await writeChunk(out, dataElement("adreport-columns", jsonInScript(columnList)));
    await writeChunk(out, '<script type="application/json" id="adreport-rows">[');
    const dates = whole.dimensionKeys.includes("date") ? dateColumn(whole) : undefined;
    let separator = "\n";
    let chunk = "";
    for await (const page of all) {
      for (const row of page.rows) {
        const cells = cellsOf(row, columns, report.meta.granularity).map((cell) => cell ?? null);
        collector.add(row, dates && String(cellsOf(row, dates, report.meta.granularity)[0]));
        chunk += separator + jsonInScript(cells);
        separator = ",\n";
      }
      await writeChunk(out, chunk);
      chunk = "";
    }
    await writeChunk(out, "\n]</script>\n");
    // Over every row of the report (rows --top left out included) when the stages counted them.
    const totals = report.totals?.();
    const total = columns.order.map(({ name, metric }) => {
      if (!metric) return null;
      const value = totals ? totals.metrics[name] : metricValue(name, collector.grandTotal);
      return value === undefined || value === null ? null : roundToMicros(value);
    });
    const picture = {
      ...collector.picture(),
      metrics: charted.charts,
      previous: charted.previous ?? null,
      // The footer's label goes in the first column, which must be a dimension's (as in the table format).
      total: columns.order[0]?.metric === false ? total : null,
      totalRows: totals?.rows ?? collector.grandTotal.rows,
    };
    await writeChunk(out, dataElement("adreport-picture", jsonInScript(picture)));
    await writeChunk(out, libraryElement());
    await writeChunk(out, scriptElement(PAGE_SCRIPT));
    await writeChunk(out, PAGE_END);
  },
};
