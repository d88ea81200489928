/**
 * A line chart for a terminal (simple-ascii-chart): the first metric over dates, one series per entity
 * for the top 6 entities by that metric (the others are counted in a note, not drawn). In colour one chart
 * holds every series, told apart by colour and a legend; without colour (NO_COLOR, a file, a pipe) each
 * series gets its own small chart, titled with its name, since lines drawn in the same characters could not
 * be told apart. Every chart spans its whole height: its y axis runs from the lowest value drawn to the
 * highest (a small chart's from its own series': on one scale for all, a series would move over 2 or 3 of
 * its rows), labelled at even steps. Holds the sums per entity and date until the end (the top entities
 * are known only then). Names are shown through `printable`.
 */
import { type Color, plot, type Settings } from "simple-ascii-chart";
import { rowsOf } from "../contract";
import { UsageError } from "../core/errors";
import { type MetricKind, metricKind } from "../core/metric-kind";
import { printable } from "../core/printable";
import { writeChunk } from "../io/write";
import { cellsOf, columnsOf, peekFirstRow } from "./columns";
import type { Formatter } from "./formatter";
import { type Picture, PictureCollector } from "./picture/collect";

const TOP_ENTITIES = 6;
const COLOURS: readonly Color[] = ["ansiBlue", "ansiRed", "ansiGreen", "ansiYellow", "ansiMagenta", "ansiCyan"];
/** Rows of a chart: 12 steps, so 5 labels (every 3 rows) or 3 (every 6) fall on rows. */
const HEIGHT = 13;
/** Rows of each small chart: 3 labels, every 2 rows. */
const SMALL_HEIGHT = 5;

/** The y axis from the lowest to the highest value, and `labels` ticks at even steps between them. */
function scale(values: readonly number[], labels: number): Pick<Settings, "yRange" | "customYAxisTicks"> {
  let [low, high] = [Math.min(...values), Math.max(...values)];
  if (low === high) {
    // A flat line in the middle, between labels around its value.
    const pad = low === 0 ? 1 : Math.abs(low) / 2;
    [low, high] = [low - pad, high + pad];
  }
  const ticks = Array.from({ length: labels }, (_, i) => low + ((high - low) * i) / (labels - 1));
  return { yRange: [low, high], customYAxisTicks: ticks };
}

function numberText(value: number, kind: MetricKind): string {
  const round = (v: number, digits: number) => v.toLocaleString("en-US", { maximumFractionDigits: digits });
  if (kind === "percent" || kind === "change") return `${round(value * 100, 2)}%`;
  if (Math.abs(value) >= 1e6) return `${round(value / 1e6, 2)}M`;
  if (Math.abs(value) >= 1e4) return `${round(value / 1e3, 1)}k`;
  // Labels at even steps fall between whole counts: 9,436 rather than 9,436.5.
  return round(value, kind === "money" ? 2 : Math.abs(value) >= 100 ? 0 : 2);
}

/** Date ticks spaced so their labels do not run into each other. */
function dateTicks(dates: readonly string[], plotWidth: number): number[] {
  const labelWidth = Math.max(...dates.map((d) => d.length)) + 2;
  const fit = Math.max(1, Math.floor(plotWidth / labelWidth));
  const step = Math.max(1, Math.ceil(dates.length / fit));
  const ticks: number[] = [];
  for (let i = 0; i < dates.length; i += step) ticks.push(i);
  return ticks;
}

function pointsOf(values: ReadonlyArray<number | null>): Array<[number, number]> {
  const points: Array<[number, number]> = [];
  values.forEach((value, x) => {
    if (value !== null) points.push([x, value]);
  });
  return points;
}

/** Without the blank lines around a chart, nor the bare axis a chart without its x axis ends with. */
function withoutBlankEnds(lines: string[]): string[] {
  const trimmed = lines.map((line) => line.trimEnd());
  while (trimmed[0] === "") trimmed.shift();
  while (trimmed.at(-1) === "" || /^\s*│$/.test(trimmed.at(-1) ?? "")) trimmed.pop();
  return trimmed;
}

function draw(picture: Picture, metric: string, width: number, color: boolean): string {
  const dates = picture.dates ?? [];
  const kind = metricKind(metric);
  const drawn = picture.series
    .map((series, index) => ({ label: printable(series.label), points: pointsOf(series.values[metric] ?? []), index }))
    .filter((series) => series.points.length > 0);
  if (drawn.length === 0) return `no ${printable(metric)} values to draw\n`;
  const ys = drawn.flatMap((series) => series.points.map(([, y]) => y));
  // A line needs two x positions: a single date is drawn as a short flat line around it.
  const points = (series: (typeof drawn)[number]) =>
    dates.length === 1
      ? series.points.flatMap(
          ([, y]): Array<[number, number]> => [
            [-0.5, y],
            [0.5, y],
          ],
        )
      : series.points;
  const plotWidth = Math.max(20, width - 14);
  const settings: Settings = {
    width: plotWidth,
    customXAxisTicks: dates.length === 1 ? [0] : dateTicks(dates, plotWidth),
    // More dates than columns: lines would pile up in each column; dots read better.
    mode: dates.length > plotWidth ? "point" : "line",
    formatter: (value, { axis }) => (axis === "x" ? (dates[Math.round(value)] ?? "") : numberText(value, kind)),
  };
  // One series needs no legend or small charts: one full chart, in colour or not.
  if (color || drawn.length === 1) {
    const named = !color && picture.byEntity ? `${drawn[0]?.label}\n` : "";
    const chart = plot(drawn.map(points), {
      ...settings,
      ...scale(ys, 5),
      height: HEIGHT,
      ...(color
        ? {
            color: drawn.map((series) => COLOURS[series.index % COLOURS.length] as Color),
            legend: { position: "bottom", series: drawn.map((series) => series.label) },
          }
        : {}),
    });
    return `${named}${withoutBlankEnds(chart.split("\n")).join("\n")}\n`;
  }
  const charts = drawn.map((series, i) =>
    withoutBlankEnds(
      plot([points(series)], {
        ...settings,
        ...scale(
          series.points.map(([, y]) => y),
          3,
        ),
        height: SMALL_HEIGHT,
        hideXAxis: i < drawn.length - 1,
      }).split("\n"),
    ),
  );
  // Each chart's y axis is as wide as its own labels: shifted so every plot starts at the same column.
  const axisAt = (lines: string[]) => Math.max(0, lines.find((line) => line.includes("▲"))?.indexOf("▲") ?? 0);
  const axis = Math.max(...charts.map(axisAt));
  return drawn
    .map((series, i) => {
      const lines = charts[i] as string[];
      const pad = " ".repeat(axis - axisAt(lines));
      const title = picture.byEntity ? `${series.label}\n` : "";
      return `${title}${lines.map((line) => `${pad}${line}`).join("\n")}\n`;
    })
    .join("\n");
}

export const chartFormatter: Formatter = {
  async write(report, out, options) {
    if (!report.meta.dimensions.includes("date")) {
      throw new UsageError("--format chart draws a metric over dates; this report has no date dimension", {
        hint: "add date to --dims (--dims campaign,date), or use --format html for a bar chart",
      });
    }
    const { first, all } = await peekFirstRow(report.pages);
    const columns = columnsOf(report.meta, first);
    // The first metric --fields chose (else the first listed); entities are told apart by all their keys.
    const metric = columnsOf(report.meta, first, report.fields).metrics[0];
    if (metric === undefined) throw new UsageError("--format chart needs a metric to draw");
    const collector = new PictureCollector({ ...columns, metrics: [metric] }, { top: TOP_ENTITIES, other: false });
    const dateIndex = columns.dimensionKeys.indexOf("date");
    for await (const row of rowsOf(all))
      collector.add(row, String(cellsOf(row, columns, report.meta.granularity)[dateIndex] ?? ""));
    const picture = collector.picture();
    if (picture.series.length === 0) {
      await writeChunk(out, "(no rows)\n");
      return;
    }
    const shown = picture.series.length;
    const ownScales = !options.color && shown > 1 ? " (each on its own scale)" : "";
    const title =
      picture.entities > shown
        ? `${metric} by date: the top ${shown} of ${picture.entities} by ${metric}${ownScales}`
        : `${metric} by date${ownScales}`;
    await writeChunk(out, `${printable(title)}\n${draw(picture, metric, options.width ?? 80, options.color)}`);
  },
};
