/**
 * The page's own script (browser JavaScript, inline after Chart.js): reads the data from the
 * `application/json` elements, draws a chart per metric and fills the table. With --compare
 * (`picture.previous`) each chart also draws the earlier period (`<metric>_prev`): a dotted line beside each
 * entity's line, or a paler bar beside each bar. Every text from the service reaches the page through
 * textContent or the canvas, never as markup. Each chart's <figure> carries data-metric, data-kind (line or
 * bar) and data-series (the number of series, or of bars) for tests.
 */
export const PAGE_SCRIPT = `
(function () {
  "use strict";
  function read(id) { return JSON.parse(document.getElementById(id).textContent); }
  var columns = read("adreport-columns");
  var rows = read("adreport-rows");
  var picture = read("adreport-picture");
  var COLOURS = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#65a30d", "#ea580c", "#4f46e5"];
  var OTHER = "#9ca3af";

  function formatValue(value, kind) {
    if (value === null || value === undefined) return "-";
    if (typeof value !== "number" || kind === "text") return String(value);
    if (kind === "money") return value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    if (kind === "percent") return (value * 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }) + "%";
    if (kind === "change") return (value > 0 ? "+" : "") + (value * 100).toLocaleString("en-US", { maximumFractionDigits: 1 }) + "%";
    return value.toLocaleString("en-US", { maximumFractionDigits: 6 });
  }
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  var kinds = {};
  columns.forEach(function (column) { kinds[column.name] = column.kind; });
  var charts = document.getElementById("adreport-charts");
  if (picture.series.length === 0) charts.appendChild(element("p", "note", "No rows: nothing to draw."));
  picture.metrics.forEach(function (metric) {
    if (picture.series.length === 0) return;
    var kind = kinds[metric];
    var figure = element("figure", "chart");
    figure.dataset.metric = metric;
    var dotted = picture.previous && picture.dates ? " (dotted: " + picture.previous + ")" : "";
    figure.appendChild(element("figcaption", "", metric + dotted));
    var box = element("div", "chart-box");
    var canvas = document.createElement("canvas");
    box.appendChild(canvas);
    figure.appendChild(box);
    charts.appendChild(figure);
    var config;
    if (picture.dates) {
      var many = picture.dates.length > 60;
      config = {
        type: "line",
        data: {
          labels: picture.dates,
          datasets: picture.series.reduce(function (sets, series, i) {
            var colour = series.other ? OTHER : COLOURS[i % COLOURS.length];
            sets.push({ label: series.label, data: series.values[metric], borderColor: colour, backgroundColor: colour,
              borderDash: series.other ? [6, 4] : [], pointRadius: many ? 0 : 2, borderWidth: 2, spanGaps: false });
            if (picture.previous) {
              sets.push({ label: series.label + " (" + picture.previous + ")", data: series.values[metric + "_prev"],
                borderColor: colour, backgroundColor: colour, borderDash: [2, 3], pointRadius: 0, borderWidth: 1.5,
                spanGaps: false, earlier: true });
            }
            return sets;
          }, []),
        },
      };
      figure.dataset.kind = "line";
      figure.dataset.series = String(picture.series.length);
    } else {
      config = {
        type: "bar",
        data: {
          labels: picture.series.map(function (series) { return series.label; }),
          datasets: [{ label: metric, data: picture.series.map(function (series) { return series.values[metric][0]; }),
            backgroundColor: picture.series.map(function (series, i) { return series.other ? OTHER : COLOURS[i % COLOURS.length]; }) }],
        },
      };
      if (picture.previous) {
        config.data.datasets.push({ label: metric + " (" + picture.previous + ")",
          data: picture.series.map(function (series) { return series.values[metric + "_prev"][0]; }),
          backgroundColor: picture.series.map(function (series, i) { return (series.other ? OTHER : COLOURS[i % COLOURS.length]) + "66"; }) });
      }
      figure.dataset.kind = "bar";
      figure.dataset.series = String(picture.series.length);
    }
    config.options = {
      animation: false, responsive: true, maintainAspectRatio: false,
      interaction: { mode: "nearest", intersect: false },
      plugins: {
        // The earlier period's lines share their entity's colour: the caption says they are dotted.
        legend: { display: config.type === "line" || Boolean(picture.previous), position: "bottom",
          labels: { filter: function (item, data) { return !data.datasets[item.datasetIndex].earlier; } } },
        tooltip: { callbacks: { label: function (item) {
          var bar = item.label + (item.datasetIndex > 0 ? " (" + picture.previous + ")" : "");
          return (config.type === "line" ? item.dataset.label : bar) + ": " + formatValue(item.raw, kind);
        } } },
      },
      scales: { y: { ticks: { callback: function (value) { return formatValue(value, kind === "count" ? "count" : kind); } } } },
    };
    new Chart(canvas, config);
  });

  var table = document.getElementById("adreport-table");
  var head = element("tr");
  var order = { column: -1, descending: false };
  var headers = columns.map(function (column, index) {
    var numeric = column.kind !== "text";
    var th = element("th", numeric ? "num" : "");
    th.setAttribute("aria-sort", "none");
    th.dataset.column = column.name;
    var button = element("button", "", column.name);
    button.type = "button";
    button.addEventListener("click", function () { sortBy(index); });
    th.appendChild(button);
    head.appendChild(th);
    return th;
  });
  table.tHead.appendChild(head);
  var body = table.tBodies[0];

  // A browser builds a table of a few thousand rows at once; hundreds of thousands take minutes. Sorting
  // covers every row; the table shows the first rows of that order, and more on request.
  var STEP = 2000;
  var shown = Math.min(rows.length, STEP);
  var more = document.getElementById("adreport-more");
  function showMore(count) {
    shown = Math.min(rows.length, count);
    render();
  }
  function render() {
    var fragment = document.createDocumentFragment();
    rows.slice(0, shown).forEach(function (row) {
      var tr = document.createElement("tr");
      columns.forEach(function (column, i) {
        tr.appendChild(element("td", column.kind === "text" ? (column.key ? "key" : "") : "num", formatValue(row[i], column.kind)));
      });
      fragment.appendChild(tr);
    });
    body.replaceChildren(fragment);
    more.replaceChildren();
    if (shown < rows.length) {
      more.appendChild(document.createTextNode("Showing the first " + shown.toLocaleString("en-US") + " of " +
        rows.length.toLocaleString("en-US") + " rows in this order. "));
      var next = element("button", "", "Show " + Math.min(STEP, rows.length - shown).toLocaleString("en-US") + " more");
      next.type = "button";
      next.id = "adreport-show-more";
      next.addEventListener("click", function () { showMore(shown + STEP); });
      more.appendChild(next);
    }
  }
  function compare(a, b) {
    if (typeof a === "number" && typeof b === "number") return a - b;
    return String(a).localeCompare(String(b), undefined, { numeric: true });
  }
  function sortBy(index) {
    order.descending = order.column === index ? !order.descending : columns[index].kind !== "text";
    order.column = index;
    var sign = order.descending ? -1 : 1;
    rows.sort(function (x, y) {
      var a = x[index], b = y[index];
      var aNone = a === null || a === undefined, bNone = b === null || b === undefined;
      if (aNone || bNone) return aNone === bNone ? 0 : aNone ? 1 : -1;
      return sign * compare(a, b);
    });
    headers.forEach(function (th, i) {
      th.setAttribute("aria-sort", i === index ? (order.descending ? "descending" : "ascending") : "none");
    });
    render();
  }
  render();
  var totalRows = picture.totalRows || rows.length;
  if (picture.total && totalRows > 1) {
    var foot = element("tr");
    columns.forEach(function (column, i) {
      var text = i === 0 ? "total (" + totalRows.toLocaleString("en-US") + " rows)" : picture.total[i];
      foot.appendChild(element("td", column.kind === "text" ? "" : "num", column.kind === "text" ? (text || "") : formatValue(text, column.kind)));
    });
    table.createTFoot().appendChild(foot);
  }
  document.getElementById("adreport-count").textContent =
    rows.length.toLocaleString("en-US") + (rows.length === 1 ? " row" : " rows") +
    (picture.entities > picture.series.length && picture.series.length > 0 ? "; the charts draw the top " +
      picture.series.filter(function (s) { return !s.other; }).length + " of " + picture.entities +
      " by " + picture.metrics[0] + ", the rest summed as other" : "");
  document.body.dataset.ready = "true";
})();
`;
