/** Places an export may go that are not plain files: device nodes of our own, named pipes and their readers. */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "./temp";

/**
 * A character device node of our own that behaves as /dev/full (1,7) or /dev/null (1,3), where this
 * machine lets us make one (root): a sink that wrongly replaced its target never touches the system's.
 */
export function ownDevice(name: "full" | "null"): string {
  const path = join(tempDir(), name);
  const made = spawnSync("mknod", [path, "c", "1", name === "full" ? "7" : "3"]).status === 0;
  return made ? path : `/dev/${name}`;
}

/** A named pipe, alone in a fresh folder, as `loader.pipe`. */
export function makeFifo(): string {
  const fifo = join(tempDir(), "loader.pipe");
  const made = spawnSync("mkfifo", [fifo]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  return fifo;
}

/** A reader of a named pipe, in its own process: `cat` for all of it, `head -c N` for a reader that leaves. */
export function pipeReader(fifo: string, command: readonly string[]): { child: ChildProcess; output: Promise<string> } {
  const [program, ...args] = command as [string, ...string[]];
  const child = spawn(program, [...args, fifo], { stdio: ["ignore", "pipe", "inherit"] });
  const output = new Promise<string>((resolve) => {
    let text = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
    });
    child.on("close", () => resolve(text));
  });
  return { child, output };
}

export function ndjsonRows(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}
