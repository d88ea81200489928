/**
 * What the file system says of an output, asked while a plan is made: a planner does no I/O of its own, so
 * a plan can be derived from another (an account's, a job's) and tested with a look that is a plain object.
 * The real one is engine/run/output-look.ts.
 */
import type { FolderProblem } from "./output-folder";

export interface OutputLook {
  /** Refuses at once a target no export can go into (a folder, a disk). */
  check(path: string | undefined): Promise<void>;
  /** What is wrong with the folder `target` goes into (for `{date}` names, the folder above the days'). */
  folder(target: string): Promise<FolderProblem | undefined>;
  /** `path` is a named pipe or a device that a program reads. */
  isStream(path: string | undefined): Promise<boolean>;
}
