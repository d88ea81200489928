/**
 * A 200 answer's body as a report page (docs/service.md §4), with the bytes it came from. A body that is not
 * one is worth another request: a proxy may have cut or replaced it.
 */
import { type ReportPage, reportPageSchema, type SentRows } from "../../contract";
import type { Redactor } from "../redact";
import { Retriable } from "../retry";
import { type ParsedReportBody, parseReportBody } from "./report-body";

/** A page as parsed, with the answer it was parsed from (formatters may copy rows from it). */
export interface ReceivedPage {
  page: ReportPage;
  sent: SentRows;
}

export function pageFrom(body: Buffer, redactor: Redactor): ReceivedPage {
  let parsed: ParsedReportBody;
  try {
    parsed = parseReportBody(body);
  } catch {
    throw new Retriable(
      `the service's answer is not JSON: ${redactor.redactedStart(body.toString("utf8", 0, 8192), 80)}`,
      undefined,
    );
  }
  const result = reportPageSchema.safeParse(parsed.value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Retriable(
      `the service's answer is not a report page: ${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`,
      undefined,
    );
  }
  return { page: result.data, sent: parsed.sent(result.data.data.length) };
}
