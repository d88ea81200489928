// `npm run docs`: writes docs/cli.md from the commander definitions.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { referenceMarkdown } from "../src/cli/reference";

const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
mkdirSync("docs", { recursive: true });
writeFileSync("docs/cli.md", referenceMarkdown(version));
console.error("wrote docs/cli.md");
