/**
 * A help topic's text: docs/topics/<name>.md. The builds (scripts/inline-assets.mjs) define
 * ADREPORT_TOPICS with every file's text, so the bundle and the single binary carry them in this module's
 * chunk only; run from source (tests, tsx) the file is read from docs/.
 */
import { readFileSync } from "node:fs";
import type { HelpTopic } from "./help-topics";

declare const ADREPORT_TOPICS: Readonly<Record<string, string>>;

export function topicText(name: HelpTopic): string {
  if (typeof ADREPORT_TOPICS === "object") return ADREPORT_TOPICS[name] ?? "";
  return readFileSync(new URL(`../../docs/topics/${name}.md`, import.meta.url), "utf8");
}
