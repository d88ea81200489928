/** Moved to src/engine/deadline.ts; kept here for the commands that still import it from shared/. */
export * from "../../engine/deadline";
