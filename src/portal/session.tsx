/**
 * The portal's request-scoped needs as one named plugin: the signed session cookie, who the viewer
 * is, what they may open, and CSRF protection on every state-changing request.
 */

import { createHmac, timingSafeEqual } from "node:crypto";
import { jwt } from "@elysiajs/jwt";
import { Elysia } from "elysia";
import { ERRORS, ErrorPanel } from "../../views/errors";
import { CommandError } from "../core/errors";
import type { PortalRole, Viewer } from "../core/principal";
import { countRefusal, refusalKeys } from "../core/rate-limit";
import { BUSY, bodyPace, IncomingBody, UnidentifiedBodiesAtCapacity } from "../http/body";
import { clientAddressOf } from "../http/client-address";
import type { AppDeps } from "../http/context";
import { errorPage } from "../http/error-pages";
import { type NavLink, navigationFor } from "./navigation";
import { page } from "./page";
import { isSignedInPath } from "./paths";
import { inWords } from "./words";

/** Who is looking at a portal page, and what the side navigation offers them. */
export type PortalViewer = Viewer & { navigation: NavLink[] };

/** Who may open a page: partner staff (owners included), owners only, the operator's administrators, or anyone signed in. */
export type Access = "partner" | "owner" | "admin" | "partner-or-admin";

const ALLOWED: Record<Access, readonly PortalRole[]> = {
  partner: ["owner", "staff"],
  owner: ["owner"],
  admin: ["admin"],
  "partner-or-admin": ["owner", "staff", "admin"],
};

export const SESSION_COOKIE = "session";
export const PASSWORD_PAGE = "/portal/password";

/** The home page of a role: where signing in leads. */
export const homeOf = (role: PortalRole) => (role === "admin" ? "/admin" : "/portal");

/** The CSRF token of a session: derived, so nothing more is stored; forms send it back. */
const csrfTokenOf = (secret: string, sessionId: string) => createHmac("sha256", secret).update(`csrf:${sessionId}`).digest("base64url");

function sameToken(a: string | undefined, b: string): boolean {
  if (!a || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** A request that must not go on: htmx is told where to go instead of swapping a page into a fragment. */
function stopWith(request: Request, set: { headers: Record<string, unknown> }, location: string) {
  if (request.headers.get("hx-request")) set.headers["hx-redirect"] = location;
  else set.headers.location = location;
  return request.headers.get("hx-request") ? 401 : 303;
}

const portalSessionToken = (deps: AppDeps) => jwt({ name: "sessionToken", secret: deps.sessionSecret, exp: `${deps.config.SESSION_TTL_HOURS}h` });

export const portalSession = (deps: AppDeps) => {
  const { sessionViewer } = deps;
  // The accounts module's lookup, handed down by the assembly (src/assembly/portal.ts): the toolkit imports no module.
  if (!sessionViewer) throw new Error("portalSession needs deps.sessionViewer (set by portalRoutes)");
  return new Elysia({ name: "portal-session" }).use(portalSessionToken(deps)).macro({
    portal: (access: Access) => ({
      async resolve({ sessionToken, cookie, request, set, status, body }) {
        const path = new URL(request.url).pathname;
        const claims = await sessionToken.verify(cookie[SESSION_COOKIE]?.value as string | undefined);
        const viewer = claims && typeof claims.sid === "string" ? await sessionViewer(deps.database.db, claims.sid, new Date()) : null;
        if (!viewer) return status(stopWith(request, set, `/login?next=${encodeURIComponent(path)}`), "Sign in first.");
        // The viewer, with the links of the side navigation they may open.
        const portalViewer = { ...viewer, navigation: navigationFor(deps.navigation ?? [], viewer) } as PortalViewer;
        const csrf = csrfTokenOf(deps.sessionSecret, viewer.sessionId);
        // A refusal is a page in the viewer's own layout (or the fragment htmx swaps in), with the way home.
        const refuse = (kind: "forbidden" | "expiredForm") => {
          set.headers["content-type"] = "text/html; charset=utf-8";
          const back = { href: homeOf(viewer.role), label: "Go to your home page" };
          return status(403, page(request, { title: ERRORS[kind].title, viewer: portalViewer, csrf }, <ErrorPanel {...ERRORS[kind]} back={back} />));
        };
        if (!ALLOWED[access].includes(viewer.role)) return refuse("forbidden");
        if (viewer.mustChangePassword && path !== PASSWORD_PAGE) return status(stopWith(request, set, PASSWORD_PAGE), "Choose your own password first.");
        if (request.method !== "GET") {
          const sent = request.headers.get("x-csrf-token") ?? (body as Record<string, unknown> | undefined)?._csrf;
          if (!sameToken(typeof sent === "string" ? sent : undefined, csrf)) return refuse("expiredForm");
        }
        return { viewer: portalViewer, csrf };
      },
    }),
  });
};

/** A form of a signed-out visitor (the sign-in form, which has its own parser, aside) is small. */
export const MAX_SIGNED_OUT_BODY_BYTES = 64 * 1024;

/**
 * Runs before any portal body is parsed (Elysia parses before a route's session check). A body
 * larger than MAX_SIGNED_OUT_BODY_BYTES, or of unknown length, is read only for a request whose
 * session cookie carries a valid signature; anyone else is sent to sign in, as the session check
 * would, at the cost of one signature check. Then every body must arrive at the pace
 * (BODY_TIMEOUT_MS, BODY_MIN_BYTES_PER_SECOND) before a route sees it: it is awaited here through a
 * copy (the request keeps its own, which the parser then reads at once), a signed-out one holding
 * its share of UNIDENTIFIED_BODY_BYTES. One that falls behind is cut off with a page saying so and
 * counts as a refusal of its address.
 */
export const portalBodies = (deps: AppDeps) => {
  const clientAddress = clientAddressOf(deps.config.TRUSTED_PROXIES);
  const pace = bodyPace(deps.config);
  return new Elysia({ name: "portal-bodies" }).use(portalSessionToken(deps)).onRequest(async ({ request, sessionToken, set, server }) => {
    if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return;
    const path = new URL(request.url).pathname;
    if (!isSignedInPath(path)) return;
    const declared = request.headers.get("content-length");
    const small = declared !== null && Number(declared) <= MAX_SIGNED_OUT_BODY_BYTES;
    const token = /(?:^|;\s*)session=([^;]*)/.exec(request.headers.get("cookie") ?? "")?.[1];
    const signedIn = !!token && !!(await sessionToken.verify(decodeURIComponent(token)));
    if (!small && !signedIn) {
      set.status = stopWith(request, set, `/login?next=${encodeURIComponent(path)}`);
      set.headers["content-type"] = "text/html; charset=utf-8";
      return "Sign in first.";
    }
    const copy = new IncomingBody(request.clone(), {
      maxBytes: signedIn ? Number.POSITIVE_INFINITY : MAX_SIGNED_OUT_BODY_BYTES,
      pace,
      unidentified: signedIn ? undefined : deps.capacity,
    });
    try {
      await copy.arrival();
    } catch (error) {
      set.headers.connection = "close";
      if (error instanceof UnidentifiedBodiesAtCapacity) {
        set.status = 503;
        return errorPage(set, { title: "Busy", message: BUSY });
      }
      if (!(error instanceof CommandError)) throw error;
      const decision = await countRefusal(deps.refusalLimiter, [refusalKeys.address(clientAddress(request, server))]);
      if (!decision.allowed) {
        const minutes = Math.max(1, Math.ceil(decision.retryAfterMs / 60_000));
        set.status = 429;
        set.headers["retry-after"] = String(Math.ceil(decision.retryAfterMs / 1000));
        return errorPage(set, {
          title: "Too many refused requests",
          message: `Too many refused requests from your address. Try again in ${minutes} minute(s).`,
        });
      }
      set.status = error.status;
      return errorPage(set, { title: "Not received", message: inWords(error.message) });
    } finally {
      copy.release();
    }
  });
};

/** How the cookie is set: httpOnly, SameSite=Lax, Secure when the portal is served over https. */
export function sessionCookie(deps: AppDeps, request: Request) {
  const secure =
    request.headers.get("x-forwarded-proto") === "https" || new URL(request.url).protocol === "https:" || (deps.config.PUBLIC_URL ?? "").startsWith("https:");
  return { httpOnly: true, sameSite: "lax" as const, secure, path: "/", maxAge: deps.config.SESSION_TTL_HOURS * 3600 };
}
