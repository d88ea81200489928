/** `adreport serve replay DIR`: answers a recording's requests as recorded, until SIGINT/SIGTERM. */
import { UsageError } from "../../core/errors";
import { shellWord } from "../../core/shell-word";
import { RecordingError, startReplay } from "../../server";
import type { Context } from "../context";
import { listenError } from "./start";

export interface ReplayOptions {
  host: string;
  port: number;
  quiet?: true | undefined;
}

export async function runReplay(ctx: Context, dir: string, options: ReplayOptions): Promise<void> {
  const log = options.quiet ? undefined : (line: string) => ctx.io.err.write(`${line}\n`);
  let replay: Awaited<ReturnType<typeof startReplay>>;
  try {
    replay = await startReplay({ dir, host: options.host, port: options.port, log });
  } catch (error) {
    if (error instanceof RecordingError) throw new UsageError(error.message);
    throw listenError(error, options);
  }
  const stopped = new Promise<void>((resolve) => {
    const stop = ctx.onSignal(() => {
      stop();
      void replay.close().then(resolve, resolve);
    });
  });
  ctx.io.out.write(`${replay.url}\n`);
  const skipped = replay.unanswered > 0 ? `; ${replay.unanswered} exchange(s) without an answer are not replayed` : "";
  ctx.io.err.write(
    `adreport serve: replaying ${dir} on ${replay.url}: ${replay.requests} recorded request(s)${skipped}; Ctrl-C stops\n`,
  );
  // The recording's file may have been edited by anyone: shown (a control character as an escape), never obeyed.
  if (replay.command) ctx.io.err.write(`adreport serve: recorded by: ${replay.command.map(shellWord).join(" ")}\n`);
  await stopped;
}
