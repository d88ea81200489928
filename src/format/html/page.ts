/** The page around the data: head, header, the places the script fills, and the end with the scripts. */
import { escapeHtml } from "./escape";
import { PAGE_STYLE } from "./page-style";

// Nothing may load from anywhere: only the inline scripts and styles run, and images only as data: URLs.
const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

export function pageStart(heading: string, exportedAt: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(heading)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(heading)}</h1>
<p>Exported <time datetime="${escapeHtml(exportedAt)}">${escapeHtml(exportedAt)}</time> · <span id="adreport-count"></span></p>
</header>
<section class="charts" id="adreport-charts"></section>
<div class="table-wrap"><table id="adreport-table"><thead></thead><tbody></tbody></table></div>
<p class="note" id="adreport-more"></p>
`;
}

/** A `<script>` element holding `text`; the caller makes sure it cannot hold `</script`. */
export function scriptElement(text: string, attributes = ""): string {
  return `<script${attributes}>${text}</script>\n`;
}

export const PAGE_END = "</body>\n</html>\n";
