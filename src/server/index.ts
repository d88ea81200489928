/** What the `serve` command may use of the server: listening, and the operator verbs. */

export { databaseLabel, isPostgresUrl } from "../core/database-label";
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
export { type DemoOptions, demoFacts } from "./model/demo";
export { ConflictError, DatabaseError, DatabaseUnreachableError } from "./model/errors";
export type { LoadLine } from "./model/facts";
export { canonicalEntry } from "./model/ip";
export { formatLoadLine } from "./model/load-format";
export { RecordingError } from "./replay/read-recording";
export { type RunningReplay, startReplay } from "./replay/replay-server";
export {
  defaultDeletions,
  MAX_HORIZON_DAYS,
  type RestateModel,
} from "./restate/model";
export {
  type ClockMove,
  type ClockTarget,
  type ModelStatus,
  RestateError,
  type SeedRequest,
} from "./restate/restate-rules";
export { SCHEMA_VERSION } from "./sql/schema-version";
export { type Db, openForWriting } from "./sqlite/open";
export { addIps, issueKey, listKeys, removeIps, revokeKey, rotateKey } from "./sqlite/operator";
export { FactWriter } from "./sqlite/writer";
export { KeyAdminError } from "./store/key-rules";
export { LoadError, loadNdjsonFile, loadNdjsonInto } from "./store/load";
export { openOperatorStore, upgradeDatabase } from "./store/open";
export { FACT_BATCH, type NumberedLine, type OperatorStore, type UpgradeResult } from "./store/types";
