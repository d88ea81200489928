/** What the transport tells of each try of a request, as it happens (`--verbose`, the run's summary). */
export type RequestEvent =
  /** A request handed to the connection: every one counts, answered or not (a run that ends drops some). */
  | { kind: "sent"; method: string; url: string; attempt: number }
  | { kind: "response"; method: string; url: string; status: number; ms: number; attempt: number }
  | { kind: "failure"; method: string; url: string; reason: string; ms: number; attempt: number };
