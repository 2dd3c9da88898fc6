import { Elysia } from "elysia";
import { waitWords } from "../../../views/format";
import { PasswordForm, SignInPage } from "../../../views/portal/auth";
import { CommandError } from "../../core/errors";
import type { RateDecision } from "../../core/rate-limit";
import { clientAddressOf } from "../../http/client-address";
import type { AppDeps } from "../../http/context";
import { redirectTo } from "../../portal/kit";
import { formValues, page, problemOf } from "../../portal/page";
import { homeOf, PASSWORD_PAGE, portalSession, SESSION_COOKIE, sessionCookie } from "../../portal/session";
import { emailKey, PRE_CSRF_COOKIE, preSessionFormGenuine, preSessionToken, RefusedBody, signedOutForms, tooManyRefusals } from "./pre-session";
import { changePassword, endSession, sessionViewer, signIn } from "./service";

/** A sign-in form is a few hundred bytes: anything near this is not one, and is refused before it is parsed. */
export { MAX_SIGNED_OUT_FORM_BYTES as MAX_SIGN_IN_BODY_BYTES } from "./pre-session";

/** Only a path of this portal is a place to return to after signing in (no open redirects). */
const safeNext = (next: string | undefined) => (next && /^\/(portal|admin)(\/[\w\-/.?=&%]*)?$/.test(next) ? next : undefined);

/** A key per e-mail and client address. */
const accountAtAddress = (email: string, address: string) => `${emailKey(email)}@${address}`;

/** Signing in and out, and choosing a password. */
export const accountsPortal = (deps: AppDeps) => {
  const clientAddress = clientAddressOf(deps.config.TRUSTED_PROXIES);
  const { parse, countRefused } = signedOutForms(deps);

  return new Elysia({ name: "portal-accounts" })
    .use(portalSession(deps))
    .get("/login", ({ query, cookie, request }) => (
      <SignInPage next={safeNext(query.next)} csrf={preSessionToken(deps, request, cookie)} passwordChosen={query.password === "chosen"} />
    ))
    .post(
      "/login",
      async ({ body, cookie, request, set, status, sessionToken, server }) => {
        const form = body instanceof RefusedBody ? {} : formValues(body);
        const genuine = preSessionFormGenuine(cookie, form);
        const show = (problem: { message: string; input?: string }, code: number) =>
          status(code, <SignInPage email={form.email} next={safeNext(form.next)} problem={problem} csrf={preSessionToken(deps, request, cookie)} />);
        const retryAfter = (ms: number) => {
          set.headers["retry-after"] = String(Math.max(1, Math.ceil(ms / 1000)));
        };
        const refused = (refusal: RefusedBody) => {
          if (refusal.retryAfterMs !== undefined) retryAfter(refusal.retryAfterMs);
          return show({ message: refusal.message }, refusal.status);
        };
        // Every refusal counts against the address; past the limit the answer is the 429 page.
        const again = async (problem: { message: string; input?: string }, code: number) => {
          const throttled = await countRefused(request, server);
          return throttled ? refused(tooManyRefusals(throttled)) : show(problem, code);
        };
        // Told when to try again, in the same words whether or not the e-mail has an account.
        const slowDown = (decision: RateDecision, whose: string) => {
          retryAfter(decision.retryAfterMs);
          return again({ message: `Too many failed sign-ins ${whose}. Try again in ${waitWords(decision.retryAfterMs)}.` }, 429);
        };
        if (body instanceof RefusedBody) return refused(body);
        if (!genuine) return again({ message: "This sign-in form has expired. Please try again." }, 403);
        const email = (form.email ?? "").trim().toLowerCase();
        const address = clientAddress(request, server);
        // Failures slow down one e-mail at one address (never the owner elsewhere); the address as a
        // whole is bounded too, for guesses spread over many e-mails. A success clears its run.
        const { perAccountAtAddress, perAddress } = deps.loginLimiters;
        const fromAddress = await perAddress.peek(address);
        if (!fromAddress.allowed) return slowDown(fromAddress, "from your address");
        const run = accountAtAddress(email, address);
        const turn = await perAccountAtAddress.take(run);
        if (!turn.allowed) return slowDown(turn, "with this e-mail from your address");
        try {
          const { sessionId } = await signIn(
            deps.database.db,
            { email, password: form.password ?? "", userAgent: request.headers.get("user-agent") },
            deps.config,
            new Date(),
          );
          await perAccountAtAddress.clear(run);
          cookie[PRE_CSRF_COOKIE]!.remove();
          // A fresh session id at every sign-in: a planted cookie can never become someone's session.
          cookie[SESSION_COOKIE]!.set({ value: await sessionToken.sign({ sid: sessionId }), ...sessionCookie(deps, request) });
          const viewer = (await sessionViewer(deps.database.db, sessionId, new Date()))!;
          return redirectTo(request, set, viewer.mustChangePassword ? PASSWORD_PAGE : (safeNext(form.next) ?? homeOf(viewer.role)));
        } catch (error) {
          if (!(error instanceof CommandError)) throw error;
          await perAddress.hit(address);
          return again({ message: error.message, input: error.field === "password" ? undefined : error.field }, error.status);
        }
      },
      { parse },
    )
    .post(
      "/logout",
      async ({ viewer, cookie, request, set }) => {
        await endSession(deps.database.db, viewer.sessionId, new Date());
        cookie[SESSION_COOKIE]!.remove();
        return redirectTo(request, set, "/login");
      },
      { portal: "partner-or-admin" },
    )
    .get(
      PASSWORD_PAGE,
      ({ viewer, csrf, request }) => page(request, { title: "Password", viewer, csrf }, <PasswordForm required={viewer.mustChangePassword} csrf={csrf} />),
      {
        portal: "partner-or-admin",
      },
    )
    .post(
      PASSWORD_PAGE,
      async ({ viewer, csrf, request, body, set }) => {
        const form = formValues(body);
        const wasRequired = viewer.mustChangePassword;
        try {
          if (form.newPassword !== form.confirmPassword) throw new CommandError(400, "the two new passwords are not the same", "confirmPassword");
          await changePassword(deps.database.db, viewer, { currentPassword: form.currentPassword ?? "", newPassword: form.newPassword ?? "" }, new Date());
        } catch (error) {
          set.status = 400;
          return page(
            request,
            { title: "Password", viewer, csrf },
            <PasswordForm required={viewer.mustChangePassword} problem={problemOf(error)} csrf={csrf} />,
          );
        }
        if (wasRequired) {
          // First password chosen: on to the portal.
          return redirectTo(request, set, homeOf(viewer.role));
        }
        return page(request, { title: "Password", viewer, csrf }, <PasswordForm required={false} done csrf={csrf} />);
      },
      { portal: "partner-or-admin" },
    );
};
