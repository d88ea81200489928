/** What commands use of the API layer. */
import type { Dispatcher } from "undici";

export { type ApiEvent, isThrottled, ReportApi, type WaitEvent } from "./client";
export {
  AccessRefusedError,
  ConnectionError,
  KeyRefusedError,
  NoEndpointError,
  PageTooLargeError,
  RedirectedError,
  UnmergeableRowsError,
} from "./errors";
export { Pacer, type PacerOptions, type PaceStats, type PaceTicket } from "./pace";
export { openReport, type Progress } from "./paginate";
export { Recorder, type RecordingWriter } from "./record";
export { RequestSlots } from "./request-slots";
export { openSplitReport, openWindows } from "./split";

/** An undici dispatcher, opaque to the layers above: tests pass a MockAgent, the CLI none. */
export type HttpDispatcher = Dispatcher;
