export * from "./errors";
export * from "./fields";
export * from "./query";
export * from "./report-body";
export * from "./response";
export * from "./row-spans";
export * from "./time";
