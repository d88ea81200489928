/** What the `serve` command may use of the server: listening, and the operator verbs. */
export { DEMO_DEFAULTS, type DemoOptions, demoFacts } from "./db/demo";
export { canonicalEntry } from "./db/ip";
export { addIps, issueKey, KeyAdminError, type KeyListing, listKeys, removeIps, revokeKey, rotateKey } from "./db/keys";
export { LoadError, loadNdjsonFile } from "./db/load";
export { formatLoadLine, type LoadLine } from "./db/load-format";
export { DatabaseError, type Db, type NativeBinding, openForWriting } from "./db/schema";
export { ConflictError, FactWriter } from "./db/writer";
export { FaultSpecError, faultHook, parseFaults } from "./http/faults";
export { type RunningServer, SERVE_DEFAULTS, type ServeOptions, startServer } from "./http/listen";
