/**
 * `serve --faults`: failures injected on purpose, so report jobs can be tested against a service that
 * misbehaves. A spec is a comma list of rules, each `<kind>:<when>[:<detail>]`:
 *   500:0.2        a fifth of requests, at random, answer 500 (also 502, 503, 504)
 *   429:every3     every third request answers 429 with Retry-After: 1 (`429:every3:5` says 5 s)
 *   drop:0.1       the connection is closed without an answer
 *   delay:50ms     every request waits 50 ms first (`delay:200ms:0.5` for half of them)
 *   reset-body:0.1 the status line and headers of a 200 with its Content-Length, part of the body, then a
 *                  TCP reset (a connection lost mid-body)
 *   hang:every5    the request is accepted and never answered (shutdown still closes it after its grace)
 * `when` is a rate from 0 to 1 or `everyN`. Rules are checked in order; the first that fires answers.
 * Random choices come from a seeded generator, so a run can be repeated.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import { errorBody } from "../../contract";
import { BUCKET_WORDS, SECONDS_PER_DAY } from "../../core/calendar";
import { parseDuration } from "../../core/duration";
import { timerDelay } from "../../core/wait";
import { seededRandom } from "../seeded-random";
import { accessLine } from "./access-log";

type When = { rate: number } | { every: number };
export type FaultRule =
  | { kind: "status"; status: number; when: When; retryAfter: number | undefined }
  | { kind: "drop"; when: When }
  | { kind: "reset-body"; when: When }
  | { kind: "hang"; when: When }
  | { kind: "delay"; ms: number; when: When };

export class FaultSpecError extends Error {
  override readonly name = "FaultSpecError";
}

const STATUSES = new Set([429, 500, 502, 503, 504]);

function parseWhen(text: string | undefined, rule: string): When {
  if (text === undefined) throw new FaultSpecError(`${rule}: say when, as a rate (0.2) or everyN (every3)`);
  const every = /^every(\d+)$/.exec(text);
  if (every && Number(every[1]) >= 1) return { every: Number(every[1]) };
  const rate = Number(text);
  if (text.trim() !== "" && rate >= 0 && rate <= 1) return { rate };
  throw new FaultSpecError(`${rule}: ${JSON.stringify(text)} is neither a rate from 0 to 1 nor everyN`);
}

export function parseFaults(spec: string): FaultRule[] {
  return spec
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((rule): FaultRule => {
      const [kind, first, second] = rule.split(":");
      if (kind === "drop" || kind === "reset-body" || kind === "hang") return { kind, when: parseWhen(first, rule) };
      if (kind === "delay") {
        const seconds = parseDuration(first ?? "", "ms");
        if (seconds === undefined) throw new FaultSpecError(`${rule}: the delay is a duration such as 50ms or 2s`);
        // Whole milliseconds: a bare `delay:50` or `50ms` gives exactly 50, not 50 times 0.001 times 1000.
        const ms = Math.round(seconds * 1000);
        return { kind: "delay", ms, when: second === undefined ? { rate: 1 } : parseWhen(second, rule) };
      }
      const status = Number(kind);
      if (STATUSES.has(status)) {
        const retryAfter = second === undefined ? (status === 429 ? 1 : undefined) : Number(second);
        if (retryAfter !== undefined && !(Number.isInteger(retryAfter) && retryAfter >= 0)) {
          throw new FaultSpecError(`${rule}: Retry-After is whole seconds`);
        }
        return { kind: "status", status, when: parseWhen(first, rule), retryAfter };
      }
      throw new FaultSpecError(`${rule}: unknown fault; use 429, 500, 502, 503, 504, drop, delay, reset-body or hang`);
    });
}

const RESET_PAUSE_MS = 50;
/** The body `reset-body` promises in full and cuts in half: a plausible report page. */
const RESET_BODY = JSON.stringify({
  meta: {
    granularity: BUCKET_WORDS.day,
    dimensions: ["date"],
    metrics: ["views"],
    total: 64,
    page: 1,
    limit: 100,
    has_more: false,
  },
  data: Array.from({ length: 64 }, (_, day) => ({
    dimensions: { date: 1_761_955_200 + day * SECONDS_PER_DAY },
    metrics: { views: 0 },
  })),
});
const RESET_HEAD = `HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${RESET_BODY.length}\r\n\r\n`;

/**
 * The contract's error body for an injected status. 502 and 504 have no code of their own in
 * docs/service.md: they travel as `internal`, with the status they were injected as.
 */
function injectedErrorBody(status: number) {
  if (status === 429) return errorBody("rate_limited", "too many requests (injected by --faults)");
  const body = errorBody(status === 503 ? "service_unavailable" : "internal", "injected by --faults");
  return { error: { ...body.error, status } };
}

/**
 * `log` receives an access-log line for each request a fault takes over (drop, hang, reset-body): no answer
 * is sent for those, so the usual line written when a response ends never comes.
 */
export function faultHook(rules: readonly FaultRule[], seed = 1, log?: (line: string) => void) {
  const random = seededRandom(seed);
  const counters = rules.map(() => 0);
  const fires = (when: When, index: number): boolean => {
    counters[index] = (counters[index] ?? 0) + 1;
    return "every" in when ? (counters[index] as number) % when.every === 0 : random() < when.rate;
  };
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const taken = (kind: string) =>
      log?.(
        accessLine({
          ip: request.ip,
          method: request.method,
          url: request.url,
          status: `fault:${kind}`,
          ms: 0,
          keyId: undefined,
        }),
      );
    for (const [index, rule] of rules.entries()) {
      if (!fires(rule.when, index)) continue;
      if (rule.kind === "delay") {
        await sleep(timerDelay(rule.ms));
        continue;
      }
      if (rule.kind === "drop") {
        taken(rule.kind);
        reply.hijack();
        request.raw.socket.destroy();
        return;
      }
      if (rule.kind === "hang") {
        taken(rule.kind);
        reply.hijack();
        return;
      }
      if (rule.kind === "reset-body") {
        taken(rule.kind);
        reply.hijack();
        const socket = request.raw.socket;
        // The pause lets the client read the partial body first: a reset arriving while those bytes are
        // still unread makes the kernel hand the client a plain end of stream instead of ECONNRESET.
        socket.write(`${RESET_HEAD}${RESET_BODY.slice(0, RESET_BODY.length >> 1)}`, () => {
          void sleep(RESET_PAUSE_MS).then(() => socket.resetAndDestroy());
        });
        return;
      }
      if (rule.retryAfter !== undefined) reply.header("retry-after", String(rule.retryAfter));
      await reply
        .code(rule.status)
        .type("application/json; charset=utf-8")
        .send(JSON.stringify(injectedErrorBody(rule.status)));
      return;
    }
  };
}
