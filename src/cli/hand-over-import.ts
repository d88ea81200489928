/**
 * What every dynamic `import()` of the front bundle loads instead of its module (scripts/build.mjs): the
 * front carries no command's implementation, so reaching one hands the command line over.
 */
import { HandOver } from "./hand-over";

throw new HandOver();
