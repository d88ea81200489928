// `npm run docs`: writes docs/cli.md and man/adreport.1 from the commander definitions,
// docs/topics/settings.md from the settings' declarations, development.md's import rules from
// scripts/import-rules.mjs, docs/openapi.json from the contract,
// THIRD-PARTY-NOTICES from the bundle's inputs.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { manPage } from "../src/cli/man-page";
import { documentedProgram, referenceMarkdown } from "../src/cli/reference";
import { settingsTopic } from "../src/cli/settings-topic";
import { openApiText } from "../src/contract/openapi";
import { rulesTable } from "./import-rules.mjs";
import { thirdPartyNotices } from "./third-party-notices.mjs";

const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
mkdirSync("docs/topics", { recursive: true });
mkdirSync("man", { recursive: true });
/** development.md with its table of import rules as scripts/import-rules.mjs declares them. */
function withImportRules(text: string): string {
  return text.replace(
    /(<!-- import-rules:[^\n]*-->\n)[\s\S]*?(\n<!-- \/import-rules -->)/,
    (_, open: string, close: string) => `${open}${rulesTable()}${close}`,
  );
}

void Promise.all([referenceMarkdown(version), documentedProgram(version)]).then(([reference, program]) => {
  const files: Record<string, string> = {
    "docs/cli.md": reference,
    "man/adreport.1": manPage(program, version),
    "docs/topics/settings.md": settingsTopic(),
    "docs/openapi.json": openApiText(),
    "docs/development.md": withImportRules(readFileSync("docs/development.md", "utf8")),
  };
  for (const [path, text] of Object.entries(files)) {
    writeFileSync(path, text);
    console.error(`wrote ${path}`);
  }
});
void thirdPartyNotices().then((text: string) => {
  writeFileSync("THIRD-PARTY-NOTICES", text);
  console.error("wrote THIRD-PARTY-NOTICES");
});
