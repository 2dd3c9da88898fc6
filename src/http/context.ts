import { Elysia } from "elysia";
import type { CapacityGate } from "../core/capacity";
import type { Config } from "../core/config";
import type { Viewer } from "../core/principal";
import type { DelayLimiter, RateLimiter } from "../core/rate-limit";
import type { Database, DatabaseHandle } from "../db/client";
import type { NavEntry } from "../portal/navigation";

/** What the HTTP surfaces need; tests build it with an in-memory database and their own limits. */
export interface AppDeps {
  database: DatabaseHandle;
  config: Config;
  rateLimiter: RateLimiter;
  capacity: CapacityGate;
  /** Signs portal session cookies (SESSION_SECRET, or the database's own). */
  sessionSecret: string;
  /**
   * Portal sign-ins: growing delays per e-mail and client address (an attacker elsewhere never
   * slows the owner down), and a bound on failures per address whatever the e-mails. Password
   * reset requests: a bound per e-mail (its inbox is not flooded from many addresses) and per address.
   */
  loginLimiters: { perAccountAtAddress: DelayLimiter; perAddress: RateLimiter; resetPerEmail: RateLimiter; resetPerAddress: RateLimiter };
  /** Refusals before or at authentication, per client address and per claimed partner id (REFUSAL_LIMIT_MAX). */
  refusalLimiter: RateLimiter;
  /** The portal's side navigation, gathered from the module manifests by src/assembly/portal.ts. */
  navigation?: readonly NavEntry[];
  /** Who a portal session is, or null once it ended: the accounts module's lookup, handed down by src/assembly/portal.ts. */
  sessionViewer?: (db: Database, sessionId: string, now: Date) => Promise<Viewer | null>;
  now?: () => Date;
}

/** The headers of every answer: no sniffing, no framing, and pages may load only this origin's own scripts and styles. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
};

/** What every log line of a request names, taken when it arrives (Bun has released the request by the time after-response hooks run). */
export type RequestFacts = {
  requestId: string;
  startedAt: number;
  requestMethod: string;
  requestPath: string;
};

const factsOf = new WeakMap<Request, RequestFacts>();

/** The facts of a request that reached requestContext (every request does: it runs before routing). */
export const requestFacts = (request: Request): RequestFacts | undefined => factsOf.get(request);

/** A request id for every request: echoed in x-request-id and in every log line. */
export const requestContext = new Elysia({ name: "request-context" })
  // Before routing, so answers no route produced (404, wrong method) carry the headers and are logged too.
  .onRequest(({ set, request }) => {
    Object.assign(set.headers, SECURITY_HEADERS);
    const requestId = request.headers.get("x-request-id")?.slice(0, 64) || crypto.randomUUID();
    set.headers["x-request-id"] = requestId;
    // Named apart from the context's own (read-only) `path`, which routes with parameters define.
    factsOf.set(request, { requestId, startedAt: performance.now(), requestMethod: request.method, requestPath: new URL(request.url).pathname });
  })
  .derive({ as: "global" }, ({ request }) => factsOf.get(request)!);
