import { createHash, randomBytes } from "node:crypto";
import type { Cookie } from "elysia";
import { waitWords } from "../../../views/format";
import { CommandError } from "../../core/errors";
import { jsonLimits } from "../../core/json-shape";
import { countRefusal, type RateDecision, refusalKeys } from "../../core/rate-limit";
import { BUSY, bodyPace, readBoundedForm, UnidentifiedBodiesAtCapacity } from "../../http/body";
import { clientAddressOf, type PeerSource } from "../../http/client-address";
import type { AppDeps } from "../../http/context";
import { sessionCookie } from "../../portal/session";
import { inWords } from "../../portal/words";

/** Before signing in there is no session to derive a CSRF token from: a cookie and the form carry the same random value. */
export const PRE_CSRF_COOKIE = "signin_csrf";

/** A new form token of a signed-out visitor (sign-in, reset), set in its cookie: the value the form carries. */
export function preSessionToken(deps: AppDeps, request: Request, cookie: Record<string, Cookie<unknown>>): string {
  const token = randomBytes(24).toString("base64url");
  cookie[PRE_CSRF_COOKIE]!.set({ value: token, ...sessionCookie(deps, request), maxAge: 3600 });
  return token;
}

/** Whether a signed-out visitor's form carries the token of its cookie. */
export const preSessionFormGenuine = (cookie: Record<string, Cookie<unknown>>, form: Record<string, string | undefined>) => {
  const expected = cookie[PRE_CSRF_COOKIE]?.value;
  return typeof expected === "string" && form._csrf === expected;
};

/** An e-mail as a limiter's key: hashed, so the shared store holds no one's e-mail. */
export const emailKey = (email: string) => createHash("sha256").update(email).digest("base64url");

/** A signed-out visitor's form (sign-in, reset) is a few hundred bytes: anything near this is not one, and is refused before it is parsed. */
export const MAX_SIGNED_OUT_FORM_BYTES = 64 * 1024;

/**
 * A signed-out form's body refused before it was parsed (too large, a JSON shape beyond the limits,
 * an address past the refusal limit). Handed to the route as its body, because whatever a parser
 * throws becomes Elysia's generic "could not be read": the page says what was wrong instead.
 */
export class RefusedBody {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly retryAfterMs?: number,
  ) {}
}

export const tooManyRefusals = (decision: RateDecision) =>
  new RefusedBody(429, `Too many refused requests from your address. Try again in ${waitWords(decision.retryAfterMs)}.`, decision.retryAfterMs);

/**
 * How the signed-out forms read their bodies: `parse`, before the body is read, turns away an
 * address past the refusal limit; then at most MAX_SIGNED_OUT_FORM_BYTES are read, at the pace, and
 * a JSON body's shape is checked before it is parsed. `countRefused` counts a refusal against the
 * address (REFUSAL_LIMIT_MAX, as on POST /): the wait when it is past the limit.
 */
export function signedOutForms(deps: AppDeps) {
  const clientAddress = clientAddressOf(deps.config.TRUSTED_PROXIES);
  const bodyLimits = jsonLimits(deps.config.MAX_DOCUMENT_BYTES);
  const pace = bodyPace(deps.config);
  const countRefused = async (request: Request, server: PeerSource | null) => {
    const decision = await countRefusal(deps.refusalLimiter, [refusalKeys.address(clientAddress(request, server))]);
    return decision.allowed ? null : decision;
  };
  async function parse({ request, server, set }: { request: Request; server: PeerSource | null; set: { headers: Record<string, unknown> } }) {
    // Refused before all of it arrived: the connection is closed rather than the rest read.
    set.headers.connection = "close";
    const blocked = await deps.refusalLimiter.peek(refusalKeys.address(clientAddress(request, server)));
    if (!blocked.allowed) return tooManyRefusals(blocked);
    try {
      const form = await readBoundedForm(request, { maxBytes: MAX_SIGNED_OUT_FORM_BYTES, pace, unidentified: deps.capacity }, bodyLimits);
      delete set.headers.connection;
      return form;
    } catch (error) {
      if (error instanceof UnidentifiedBodiesAtCapacity) return new RefusedBody(503, BUSY);
      if (!(error instanceof CommandError)) throw error;
      const throttled = await countRefused(request, server);
      return throttled ? tooManyRefusals(throttled) : new RefusedBody(error.status, inWords(error.message));
    }
  }
  return { parse, countRefused };
}
