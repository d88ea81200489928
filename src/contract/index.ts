export * from "./endpoint";
export * from "./errors";
export * from "./fields";
export * from "./openapi";
export * from "./query";
export * from "./recording";
export * from "./response";
export * from "./time";
