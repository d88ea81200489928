/** Moved to src/engine/hints.ts; kept here for the commands that still import it from shared/. */
export * from "../../engine/hints";
