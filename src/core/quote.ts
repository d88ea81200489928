/** Quotes a caller's text in a message, cut short so a hostile value cannot flood a log line. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
