/** Moved to src/engine/when.ts; kept here for the commands that still import it from shared/. */
export * from "../../engine/when";
