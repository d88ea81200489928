/** `adreport 0.1.0 (Node.js v24.11.0, linux-x64)`: what a bug report needs, in one line. */
export function versionLine(version: string): string {
  return `adreport ${version} (Node.js ${process.version}, ${process.platform}-${process.arch})`;
}

/** Whether the words are only a request for the version, which the entry answers before loading commander. */
export function asksVersionOnly(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V");
}
