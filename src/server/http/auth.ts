/** Check 1 and 2 of docs/service.md §3: the key, then the caller's address against the key's whitelist. */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ErrorCode } from "../../contract";
import { canonicalAddress } from "../model/ip";
import { hashKey, KEY_PATTERN } from "../store/key-rules";
import type { ServeStore } from "../store/types";
import type { AuthFailureThrottle } from "./auth-throttle";
import { sendError } from "./errors";

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

declare module "fastify" {
  interface FastifyRequest {
    advertiserId: number;
    keyId: number;
  }
}

export function authenticate(store: ServeStore, nowSeconds: () => number, throttle?: AuthFailureThrottle) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const caller = canonicalAddress(request.ip) ?? request.ip;
    const wait = throttle?.retryAfter(caller) ?? 0;
    if (wait > 0) {
      reply.header("retry-after", String(wait));
      await sendError(
        reply,
        "rate_limited",
        `too many failed authentications from ${caller}; try again in ${wait} s with a valid key`,
      );
      return;
    }
    const refuse = async (code: ErrorCode, message: string) => {
      throttle?.recordFailure(caller);
      await sendError(reply, code, message);
    };
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === "") {
      await refuse("missing_key", "no API key: send the header Authorization: Bearer <key>");
      return;
    }
    const token = BEARER.exec(header)?.[1];
    if (token === undefined) {
      await refuse("invalid_key", "the Authorization header must be: Bearer <key>");
      return;
    }
    const key = KEY_PATTERN.test(token) ? await store.findKey(hashKey(token)) : undefined;
    if (!key) {
      await refuse("invalid_key", "the API key is not valid");
      return;
    }
    if (key.revokedAt !== null) {
      await refuse("invalid_key", "the API key has been revoked; ask the operator for a new one");
      return;
    }
    if (key.expiresAt !== null && key.expiresAt <= nowSeconds()) {
      await refuse("key_expired", "the API key has expired; ask the operator for a rotation");
      return;
    }
    if (!(await store.whitelist(key.id)).allows(caller)) {
      await sendError(reply, "ip_not_allowed", `requests from ${caller} are not on this key's IP whitelist`);
      return;
    }
    request.advertiserId = key.advertiserId;
    request.keyId = key.id;
  };
}
