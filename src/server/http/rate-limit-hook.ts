/**
 * The rate limit on `GET /v1/report`, run once the key is known (a refused key never reaches a bucket).
 * Every answer it lets through, and its own 429, carries the header fields of
 * draft-ietf-httpapi-ratelimit-headers-11 (Structured Field lists) unless they are turned off:
 *   RateLimit-Policy: "default";q=<bucket size>;w=<window seconds>
 *   RateLimit: "default";r=<whole tokens left>;t=<seconds until the next token>
 * A 429 also says `Retry-After` in whole seconds, the same as `t`.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { sendError } from "./errors";
import type { BucketState, RateLimit, RateLimiter } from "./rate-limit";

/** The quota policy's name in both fields: there is one policy. */
export const POLICY_NAME = "default";

export function rateLimitPolicyField(limit: RateLimit): string {
  return `"${POLICY_NAME}";q=${limit.quota};w=${limit.windowSeconds}`;
}

export function rateLimitField(state: Omit<BucketState, "allowed">): string {
  return `"${POLICY_NAME}";r=${state.remaining};t=${state.nextTokenSeconds}`;
}

function perWindow(limit: RateLimit): string {
  return `${limit.quota} request${limit.quota === 1 ? "" : "s"} a ${limit.windowSeconds === 1 ? "second" : "minute"}`;
}

/** @param headers false: only the 429 and its Retry-After tell a caller of the limit. */
export function rateLimitHook(limiter: RateLimiter, headers: boolean) {
  const policy = rateLimitPolicyField(limiter.limit);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const state = limiter.take(request.keyId);
    if (headers) reply.header("ratelimit-policy", policy).header("ratelimit", rateLimitField(state));
    if (state.allowed) return;
    const wait = Math.max(1, state.nextTokenSeconds);
    reply.header("retry-after", String(wait));
    await sendError(
      reply,
      "rate_limited",
      `this key is over its rate limit of ${perWindow(limiter.limit)}; try again in ${wait} s`,
    );
  };
}
