/** The bundle's entry: what `bin/adreport` calls. */
import { run } from "./main";
import { systemContext } from "./system-context";

export async function main(): Promise<void> {
  const ctx = systemContext();
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    // The reader closed the pipe (`| head`): stop quietly, as other Unix tools do.
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  });
  process.exitCode = await run(process.argv.slice(2), ctx);
}
