/** `{date}` in -o: one file per date bucket, kept by a job as the template's absolute path. */
import { dirname, join, resolve } from "node:path";
import { UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import type { JobTarget } from "../../state/job";
import type { TargetKind } from "../kind";

export interface FilesTarget extends JobTarget {
  readonly kind: "files";
  /** Absolute, with {date}. */
  readonly template: string;
}

const DATE = "{date}";

export const filesKind: TargetKind<FilesTarget> = {
  name: "files",
  claims: (output) => output.includes(DATE),
  takesTable: false,
  example: "exports/{date}.csv",
  parse(words, cwd) {
    const { output } = words;
    if (output.includes("{from}") || output.includes("{to}")) {
      throw new UsageError("--output: {date} names one file per day; it does not go with {from} or {to}");
    }
    const target: FilesTarget = { kind: "files", template: resolve(cwd, output) };
    return { kind: "target", target, what: "{date} in --output", template: output, given: output };
  },
  check: ({ template }) =>
    typeof template === "string" && template.includes(DATE) ? { kind: "files", template } : undefined,
  fromText: (text) => (text.includes(DATE) ? { kind: "files", template: text } : undefined),
  text: (target) => target.template,
  writers: "one",
  grows: false,
  describe: (spec) => ({
    words: `one file per date bucket, ${printable(spec.given)}`,
    json: { kind: "days", template: spec.given },
  }),
  async open(spec, options) {
    if (options.dayFiles === undefined) throw new Error("a {date} export without a format");
    const { dayFileTarget } = await import("./target");
    const target = dayFileTarget(spec.given, options.cwd, options.dayFiles.formatter, options.dayFiles.options);
    return { ...target, close: async () => undefined };
  },
  reading: (target) => ({ reads: "day files", template: target.template }),
  words: (target) => ({ output: target.template }),
  dayFile: (target, day) => target.template.replaceAll(DATE, day),
  stateBeside: (target) => join(filesRoot(target.template), STATE_BESIDE),
};

/** The folder beside a job's day files that keeps its state, when it is there (made by hand: opt-in). */
export const STATE_BESIDE = ".adreport";

/** The deepest folder of the template with no placeholder in its path: `/v/out` of `/v/out/{profile}/{date}.csv`. */
function filesRoot(template: string): string {
  const open = template.indexOf("{");
  return dirname(template.slice(0, open + 1));
}
