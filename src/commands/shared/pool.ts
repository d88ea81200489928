/** Moved to src/engine/pool.ts; kept here for the commands that still import it from shared/. */
export * from "../../engine/pool";
