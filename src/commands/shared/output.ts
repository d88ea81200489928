/** Moved to src/engine/output.ts; kept here for the commands that still import it from shared/. */
export * from "../../engine/output";
