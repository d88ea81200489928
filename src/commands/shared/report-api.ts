/** Moved to src/engine/report-api.ts; kept here for the commands that still import it from shared/. */
export * from "../../engine/report-api";
