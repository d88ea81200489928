/** This process as a lock's holder names it: its pid and its host (io/ is where process is read). */
import { hostname } from "node:os";

export interface ThisProcess {
  pid: number;
  host: string;
}

export function thisProcess(): ThisProcess {
  return { pid: process.pid, host: hostname() };
}

/** `4242 on "build-2"`, as a lock's holder is said (io/lock-file.ts says another host's so). */
export function holderText(holder: ThisProcess = thisProcess()): string {
  return `${holder.pid} on ${JSON.stringify(holder.host)}`;
}
