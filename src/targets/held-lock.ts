/**
 * A lock the kernel holds for this process (targets/sqlite/held-lock.ts), for the job stores that lock
 * outside a database: the `.adreport/` folder beside {date} files, which other hosts' containers mount.
 */
export { holdLock } from "./sqlite/held-lock";
