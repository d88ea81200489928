/**
 * The README is a guide a newcomer reads from the top: short, its links and anchors alive, its crontab
 * lines pasteable (cron takes no `\` continuation and finds no program by a relative name).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function links(file: string): Array<{ target: string; from: string }> {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => ({ target, from: file }));
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1] as string)));
}

describe("README.md", () => {
  it("is at most 300 lines, and says the two commands of a fresh clone on its first screen", () => {
    const lines = README.split("\n");
    expect(lines.length).toBeLessThanOrEqual(300);
    const firstScreen = lines.slice(0, 24).join("\n");
    expect(firstScreen).toContain("npm run demo");
    expect(firstScreen).toContain("npm test");
    expect(readFileSync(join(ROOT, "package.json"), "utf8")).toContain('"demo": "node scripts/demo.mjs"');
  });

  it("keeps the code's internals out", () => {
    expect(README).not.toMatch(/\bsrc\//);
    expect(README).not.toMatch(/max-old-space|semi-space|V8/);
  });

  it.each(["README.md", "docs/topics/cron.md"])(
    "%s: crontab lines cron takes as they are: one line, absolute paths",
    (file) => {
      const text = readFileSync(join(ROOT, file), "utf8");
      const cronLines = text.split("\n").filter((line) => /^(\S+ ){5}/.test(line) && /^[\d*]/.test(line));
      expect(cronLines.length).toBeGreaterThanOrEqual(2);
      for (const line of cronLines) {
        expect(line.endsWith("\\")).toBe(false);
        expect(line).not.toMatch(/(?<!\\)%/);
        const program = line
          .split(" ")
          .slice(5)
          .find((word) => !/^[A-Z_]+=/.test(word));
        expect(program?.startsWith("/")).toBe(true);
      }
    },
  );

  it("links only to files and headings that exist, as do the docs it links to", () => {
    const docs = join(ROOT, "docs");
    const files = [
      join(ROOT, "README.md"),
      ...readdirSync(docs)
        .filter((f) => f.endsWith(".md"))
        .map((f) => join(docs, f)),
      ...readdirSync(join(docs, "topics")).map((f) => join(docs, "topics", f)),
    ];
    for (const { target, from } of files.flatMap(links)) {
      const [path, hash] = target.split("#") as [string, string | undefined];
      const file = path === "" ? from : join(dirname(from), path);
      expect(existsSync(file), `${from}: ${target}`).toBe(true);
      if (hash) expect(anchorsOf(file).has(hash), `${from}: ${target}`).toBe(true);
    }
  });
});
