/** Text from the service in a page: HTML-escaped where it is markup, JSON made safe inside a <script>. */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] as string);
}

/**
 * JSON for a `<script type="application/json">`: every `<` written as `\u003c`, so no text (`</script>`,
 * `<!--`) can end the element or start markup; JSON.parse reads it back unchanged.
 */
export function jsonInScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}
