import { type Cookie, Elysia } from "elysia";
import { ChoosePasswordPage, ClosedLinkPage, ForgotPasswordPage, RESET_PAGE } from "../../../views/accounts/reset";
import { waitWords } from "../../../views/format";
import type { FormProblem } from "../../../views/portal/ui";
import { CommandError } from "../../core/errors";
import type { RateDecision } from "../../core/rate-limit";
import { clientAddressOf } from "../../http/client-address";
import type { AppDeps } from "../../http/context";
import { type ResponseSet, redirectTo } from "../../portal/kit";
import { formValues, problemOf } from "../../portal/page";
import { reachable } from "../messages";
import { type ClosedLink, choosePassword, passwordLinkStanding } from "./password-links";
import { requestPasswordReset } from "./password-reset";
import { normaliseEmail } from "./passwords";
import { emailKey, PRE_CSRF_COOKIE, preSessionFormGenuine, preSessionToken, RefusedBody, signedOutForms } from "./pre-session";

/** A link that is no more is gone; one that never was is not found. */
const CLOSED_STATUS: Record<ClosedLink, number> = { expired: 410, used: 410, superseded: 410, unknown: 404 };
function closedLink(set: ResponseSet, state: ClosedLink) {
  set.status = CLOSED_STATUS[state];
  return <ClosedLinkPage state={state} />;
}

/** A body refused before it was read: its status, and when to try again. */
function refusedWith(set: ResponseSet, refusal: RefusedBody): number {
  if (refusal.retryAfterMs !== undefined) set.headers["retry-after"] = String(Math.max(1, Math.ceil(refusal.retryAfterMs / 1000)));
  return refusal.status;
}

const EXPIRED_FORM: FormProblem = { message: "This form has expired. Please try again." };

/**
 * "Forgot your password?" (docs/security.md, "Password links"): GET/POST /reset asks for the e-mail
 * and answers the same whether an account has it; GET/POST /reset/:token chooses the password with
 * the link of the e-mail (a reset's or an invitation's), then sends the user to sign in.
 */
export const passwordResetPages = (deps: AppDeps) => {
  const db = deps.database.db;
  const clientAddress = clientAddressOf(deps.config.TRUSTED_PROXIES);
  const { resetPerEmail, resetPerAddress } = deps.loginLimiters;
  const validFor = waitWords(deps.config.PASSWORD_RESET_TTL_MINUTES * 60_000);
  const { parse } = signedOutForms(deps);

  /** What a link opens: the form to choose the password (with the refusal of the last try), or the page saying why not. */
  async function linkPage(
    token: string,
    request: Request,
    cookie: Record<string, Cookie<unknown>>,
    set: ResponseSet,
    refusal?: { code: number; problem: FormProblem },
  ) {
    const link = await passwordLinkStanding(db, token, new Date());
    if (link.state !== "open") return closedLink(set, link.state);
    set.status = refusal?.code ?? 200;
    return (
      <ChoosePasswordPage
        invitation={link.purpose === "invitation"}
        email={link.email}
        action={`${RESET_PAGE}/${token}`}
        problem={refusal?.problem}
        csrf={preSessionToken(deps, request, cookie)}
      />
    );
  }

  return new Elysia({ name: "portal-password-reset" })
    .get(RESET_PAGE, ({ cookie, request }) => <ForgotPasswordPage csrf={preSessionToken(deps, request, cookie)} />)
    .post(
      RESET_PAGE,
      async ({ body, cookie, request, server, set, status }) => {
        const form = body instanceof RefusedBody ? {} : formValues(body);
        const email = normaliseEmail(form.email ?? "");
        const show = (code: number, props: Partial<Parameters<typeof ForgotPasswordPage>[0]>) =>
          status(code, <ForgotPasswordPage email={form.email} {...props} csrf={preSessionToken(deps, request, cookie)} />);
        const slowDown = (decision: RateDecision, whose: string) => {
          set.headers["retry-after"] = String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
          return show(429, { problem: { message: `Too many links were asked ${whose}. Try again in ${waitWords(decision.retryAfterMs)}.` } });
        };
        if (body instanceof RefusedBody) return show(refusedWith(set, body), { problem: { message: body.message } });
        if (!preSessionFormGenuine(cookie, form)) return show(403, { problem: EXPIRED_FORM });
        if (!reachable("email", email) || email.length > 200)
          return show(400, { problem: { message: "Give your e-mail address, e.g. ada@partner.ng.", input: "email" } });
        // Both bounds count every request, whether or not the address has an account: they say nothing of it.
        const fromAddress = await resetPerAddress.hit(clientAddress(request, server));
        if (!fromAddress.allowed) return slowDown(fromAddress, "from your address");
        const forEmail = await resetPerEmail.hit(emailKey(email));
        if (!forEmail.allowed) return slowDown(forEmail, "for this e-mail");
        await requestPasswordReset(db, email, deps.config, new Date());
        return show(200, { sent: { validFor } });
      },
      { parse },
    )
    .get(`${RESET_PAGE}/:token`, ({ params, cookie, request, set }) => linkPage(params.token, request, cookie, set))
    .post(
      `${RESET_PAGE}/:token`,
      async ({ params, body, cookie, request, set }) => {
        const form = body instanceof RefusedBody ? {} : formValues(body);
        const refused = (code: number, problem: FormProblem) => linkPage(params.token, request, cookie, set, { code, problem });
        if (body instanceof RefusedBody) return refused(refusedWith(set, body), { message: body.message });
        if (!preSessionFormGenuine(cookie, form)) return refused(403, EXPIRED_FORM);
        if (form.password !== form.confirmPassword)
          return refused(400, problemOf(new CommandError(400, "the two new passwords are not the same", "confirmPassword")));
        try {
          const outcome = await choosePassword(db, params.token, form.password ?? "", new Date());
          if (outcome.state !== "open") return closedLink(set, outcome.state);
        } catch (error) {
          if (!(error instanceof CommandError)) throw error;
          return refused(error.status, problemOf(error));
        }
        cookie[PRE_CSRF_COOKIE]!.remove();
        return redirectTo(request, set, "/login?password=chosen");
      },
      { parse },
    );
};
