/** What commands use of the API layer. */
import type { Dispatcher } from "undici";

export { type ApiEvent, addressIn, ReportApi } from "./client";
export { type Deadline, deadline } from "./deadline";
export { openReport, type PagedReport, type Progress } from "./paginate";
export { openSplitReport, splitRange } from "./split";

/** An undici dispatcher, opaque to the layers above: tests pass a MockAgent, the CLI none. */
export type HttpDispatcher = Dispatcher;
