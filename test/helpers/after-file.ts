/**
 * What a helper cleans up after every test file (the servers, processes and folders it started), run by
 * test/helpers/file-setup.ts, vitest's setupFiles, at the end of each file. A helper's module is loaded
 * once per worker when files share one (vitest's isolate: false), so a hook it registered while loading
 * would run after the first file only; the setup file runs for every file. Newest first, as vitest's hooks.
 */
const cleanups: Array<() => unknown> = [];

export function afterEachFile(cleanup: () => unknown): void {
  cleanups.push(cleanup);
}

export async function runFileCleanups(): Promise<void> {
  for (const cleanup of [...cleanups].reverse()) await cleanup();
}
