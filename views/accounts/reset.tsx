import { Layout } from "../layout";
import { Csrf, type FormProblem, Input, ProblemSummary } from "../portal/ui";

/** Where one asks for a reset link. */
export const RESET_PAGE = "/reset";

/** GET /reset: "Forgot your password?" — the e-mail to send a link to; once sent, the same answer whoever the address is. */
export function ForgotPasswordPage(props: { email?: string; sent?: { validFor: string }; problem?: FormProblem; csrf: string }) {
  return (
    <Layout title="Forgot your password? · Partner portal">
      <section class="card narrow">
        <h1>Forgot your password?</h1>
        {props.sent ? (
          <p class="success" role="status" safe>
            {`If an account exists for that address, we have sent it a link to choose a new password. The link works once, for ${props.sent.validFor}.`}
          </p>
        ) : (
          <p class="muted">Give the e-mail you sign in with: we send it a link to choose a new password.</p>
        )}
        <ProblemSummary problem={props.problem} inputs={["email"]} />
        <form method="post" action={RESET_PAGE}>
          <Csrf token={props.csrf} />
          <Input name="email" label="E-mail" kind="email" value={props.email} required autocomplete="username" problem={props.problem} />
          <button type="submit">{props.sent ? "Send another link" : "Send me a link"}</button>
        </form>
        <p>
          <a href="/login">Back to sign in</a>
        </p>
      </section>
    </Layout>
  );
}

/** GET /reset/:token: the new password, twice (the rules of changing one). */
export function ChoosePasswordPage(props: { invitation: boolean; email: string; problem?: FormProblem; csrf: string; action: string }) {
  const title = props.invitation ? "Choose your password" : "Choose a new password";
  return (
    <Layout title={`${title} · Partner portal`}>
      <section class="card narrow">
        <h1>{title}</h1>
        <p class="muted" safe>{`For ${props.email}. Then you sign in with it; any session still open is signed out.`}</p>
        <ProblemSummary problem={props.problem} inputs={["password", "confirmPassword"]} />
        <form method="post" action={props.action}>
          <Csrf token={props.csrf} />
          <input type="hidden" name="username" value={props.email} autocomplete="username" />
          <Input
            name="password"
            label="New password"
            kind="password"
            required
            autocomplete="new-password"
            hint="At least 12 characters."
            problem={props.problem}
          />
          <Input name="confirmPassword" label="New password again" kind="password" required autocomplete="new-password" problem={props.problem} />
          <button type="submit">Save the password</button>
        </form>
      </section>
    </Layout>
  );
}

const CLOSED = {
  expired: { title: "This link has expired", text: "A link to choose a password works for a limited time only." },
  used: { title: "This link was used already", text: "A link to choose a password works once. If it was not you who used it, ask for a new one now." },
  superseded: {
    title: "A newer link was sent",
    text: "Only the latest link we sent works, and only until the password is changed. Use the latest e-mail, or ask for a new link.",
  },
  unknown: { title: "This link does not work", text: "Check that you opened the whole link from the e-mail, or ask for a new one." },
} as const;

/** A link that opens nothing: why, in plain words, and the way to a new one. */
export function ClosedLinkPage(props: { state: keyof typeof CLOSED }) {
  const closed = CLOSED[props.state];
  return (
    <Layout title={`${closed.title} · Partner portal`}>
      <section class="card narrow">
        <h1>{closed.title}</h1>
        <p>{closed.text}</p>
        <p>
          <a class="button" href={RESET_PAGE}>
            Ask for a new link
          </a>{" "}
          <a href="/login">Sign in</a>
        </p>
      </section>
    </Layout>
  );
}
