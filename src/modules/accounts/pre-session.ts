import { createHash, randomBytes } from "node:crypto";
import type { Cookie } from "elysia";
import type { AppDeps } from "../../http/context";
import { sessionCookie } from "../../portal/session";

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
