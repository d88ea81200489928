/**
 * What a job table (state/job-table.ts, provided by a table kind) locks with and names a holder by: the
 * lock file of io/lock-file.ts (pid and host), and this process as a holder says it. Kinds reach io/ only
 * through here.
 */
export { type LockResult, takeLock } from "../io/lock-file";
export { holderText, type ThisProcess, thisProcess } from "../io/this-process";
