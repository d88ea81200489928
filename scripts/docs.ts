// `npm run docs`: writes docs/cli.md from the commander definitions, docs/openapi.json from the contract,
// THIRD-PARTY-NOTICES from the bundle's inputs.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { referenceMarkdown } from "../src/cli/reference";
import { openApiText } from "../src/contract/openapi";
import { thirdPartyNotices } from "./third-party-notices.mjs";

const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
mkdirSync("docs", { recursive: true });
writeFileSync("docs/cli.md", referenceMarkdown(version));
console.error("wrote docs/cli.md");
writeFileSync("docs/openapi.json", openApiText());
console.error("wrote docs/openapi.json");
void thirdPartyNotices().then((text: string) => {
  writeFileSync("THIRD-PARTY-NOTICES", text);
  console.error("wrote THIRD-PARTY-NOTICES");
});
