/**
 * The day files a `{date}` template names that exist now: one listing of the folder where `{date}` first
 * appears (in a folder's name or the file's), every name there that fits the template's part with a real
 * day in it, and that day put into the whole template, as dayFileTarget does to write it. Nothing else is
 * listed or entered; staged files (io/leftovers.ts) and anything not a regular file are left out.
 */
import { readdir, stat } from "node:fs/promises";
import { basename, resolve, sep } from "node:path";
import { dayOfText } from "../../core/calendar";

const DATE_PLACEHOLDER = "{date}";
const SEPARATORS = sep === "/" ? /\// : /[\\/]/;
/** `.<name>.<pid>.<hex>.tmp`, what StagedFile writes beside a target. */
const STAGED = /^\..+\.\d+\.[0-9a-f]{8}\.tmp$/;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The names a part of the path may have: its first `{date}` any day, the others that same day. */
function partPattern(part: string): RegExp {
  const [head, ...rest] = part.split(DATE_PLACEHOLDER).map(escaped);
  return new RegExp(`^${head}(\\d{4}-\\d{2}-\\d{2})${rest.join("\\1")}$`);
}

async function isRegularFile(path: string): Promise<boolean> {
  const found = await stat(path).catch(() => undefined);
  return found?.isFile() === true && !STAGED.test(basename(path));
}

/** Day (YYYY-MM-DD) -> absolute path of every day file the template (relative to `cwd`) names, by day. */
export async function listDayFiles(template: string, cwd: string): Promise<Map<string, string>> {
  const parts = template.split(SEPARATORS);
  const first = parts.findIndex((part) => part.includes(DATE_PLACEHOLDER));
  if (first === -1) throw new Error(`the template ${JSON.stringify(template)} has no ${DATE_PLACEHOLDER}`);
  const above = parts.slice(0, first).join("/");
  // `/{date}.csv`: the parts before `{date}` are the root's empty name.
  const folder = resolve(cwd, above === "" && first > 0 ? template.charAt(0) : above);
  const pattern = partPattern(parts[first] as string);
  const names = await readdir(folder).catch(() => [] as string[]);
  const days = new Set<string>();
  for (const name of names) {
    const day = pattern.exec(name)?.[1];
    if (day !== undefined && dayOfText(day) !== undefined) days.add(day);
  }
  const found = await Promise.all(
    [...days].sort().map(async (day) => {
      const path = resolve(cwd, template.replaceAll(DATE_PLACEHOLDER, day));
      return (await isRegularFile(path)) ? ([day, path] as const) : undefined;
    }),
  );
  return new Map(found.filter((entry) => entry !== undefined));
}
