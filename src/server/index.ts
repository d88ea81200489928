/** What the `serve` command may use of the server: listening, and the operator verbs. */

export {
  DatabaseUnreachableError,
  databaseLabel,
  FACT_BATCH,
  isPostgresUrl,
  type NumberedLine,
  type OperatorStore,
} from "./backend";
export { type DemoOptions, demoFacts } from "./db/demo";
export { canonicalEntry } from "./db/ip";
export { addIps, issueKey, KeyAdminError, listKeys, removeIps, revokeKey, rotateKey } from "./db/keys";
export { LoadError, loadNdjsonFile, loadNdjsonInto } from "./db/load";
export { formatLoadLine, type LoadLine } from "./db/load-format";
export { DatabaseError, type Db, openForWriting } from "./db/schema";
export { ConflictError, FactWriter } from "./db/writer";
export { CorsOriginError, corsOrigin } from "./http/cors";
export { FaultSpecError, faultHook, parseFaults } from "./http/faults";
export { type RunningServer, type ServeOptions, startServer } from "./http/listen";
export { parseRateLimit, RATE_LIMIT_RULE } from "./http/rate-limit";
export {
  convertExport,
  describeSpan,
  type ExportConversion,
  type ExportGranularity,
  ExportShapeError,
} from "./load-export/convert";
export { openOperatorStore } from "./open-store";
export { RecordingError } from "./replay/read-recording";
export { type RunningReplay, startReplay } from "./replay/replay-server";
