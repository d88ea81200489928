/**
 * A help topic's text: docs/topics/<name>.md. The builds (scripts/inline-assets.mjs) define
 * ADREPORT_TOPICS as the JSON of every file's text, so the bundle and the single binary carry them in this
 * module's chunk only (a string stays where it is used; an object would be hoisted into the chunk every
 * start-up loads); run from source (tests, tsx) the file is read from docs/.
 */
import { readFileSync } from "node:fs";
import type { HelpTopic } from "./help-topics";

declare const ADREPORT_TOPICS: string;

export function topicText(name: HelpTopic): string {
  if (typeof ADREPORT_TOPICS === "string") {
    return (JSON.parse(ADREPORT_TOPICS) as Readonly<Record<string, string>>)[name] ?? "";
  }
  return readFileSync(new URL(`../../docs/topics/${name}.md`, import.meta.url), "utf8");
}
