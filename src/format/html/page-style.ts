/** The page's styles, inline: the page fetches nothing. */
export const PAGE_STYLE = `
:root { color-scheme: light; font: 14px/1.4 system-ui, sans-serif; color: #1d2430; background: #fff; }
body { margin: 0 auto; max-width: 1200px; padding: 16px 24px 48px; }
header h1 { font-size: 18px; margin: 0 0 4px; overflow-wrap: anywhere; }
header p { margin: 0; color: #5a6372; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 16px; margin: 20px 0; }
figure.chart { margin: 0; border: 1px solid #dde2ea; border-radius: 6px; padding: 8px 12px; }
figure.chart figcaption { font-weight: 600; margin-bottom: 4px; }
.chart-box { position: relative; height: 320px; }
.note { color: #5a6372; margin: 8px 0; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 8px; border-bottom: 1px solid #e6e9ef; text-align: left; white-space: pre-wrap; overflow-wrap: anywhere; }
td { max-width: 40em; }
td.num, th.num { text-align: right; }
td.num, td.key { white-space: nowrap; overflow-wrap: normal; }
th button { all: unset; cursor: pointer; font-weight: 600; }
th button:focus-visible { outline: 2px solid #3b82f6; }
th[aria-sort="ascending"] button::after { content: " \\25B2"; }
th[aria-sort="descending"] button::after { content: " \\25BC"; }
tfoot td { font-weight: 600; border-top: 2px solid #c8ced8; }
`;
