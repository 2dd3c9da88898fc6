import { RESET_PAGE } from "../accounts/reset";
import { Layout } from "../layout";
import { Csrf, type FormProblem, HxForm, Input, ProblemSummary } from "./ui";

/** GET /login: e-mail and password, and the way to a reset link. */
export function SignInPage(props: { email?: string; next?: string; problem?: FormProblem; csrf: string; passwordChosen?: boolean }) {
  return (
    <Layout title="Sign in · Partner portal" signInLink={false}>
      <section class="card narrow">
        <h1>Sign in</h1>
        <p class="muted">Partner staff and the operator's administrators sign in here.</p>
        {props.passwordChosen && (
          <p class="success" role="status">
            Your password is saved. Sign in with it.
          </p>
        )}
        <ProblemSummary problem={props.problem} inputs={["email"]} />
        <form method="post" action="/login">
          <Csrf token={props.csrf} />
          <input type="hidden" name="next" value={props.next ?? ""} />
          <Input name="email" label="E-mail" kind="email" value={props.email} required autocomplete="username" problem={props.problem} />
          <Input name="password" label="Password" kind="password" required autocomplete="current-password" />
          <button type="submit">Sign in</button>
        </form>
        <p>
          <a href={RESET_PAGE}>Forgot your password?</a>
        </p>
      </section>
    </Layout>
  );
}

/** /portal/password: change one's own password (required after an invitation). */
export function PasswordForm(props: { problem?: FormProblem; required: boolean; done?: boolean; csrf: string }) {
  return (
    <section class="card narrow" id="password">
      <h1>Change password</h1>
      {props.required && <p class="notice">You signed in with a one-time password. Choose your own to continue.</p>}
      {props.done && (
        <p class="success" role="status">
          Your password was changed. Your other sessions were signed out.
        </p>
      )}
      <ProblemSummary problem={props.problem} inputs={["currentPassword", "newPassword", "confirmPassword"]} />
      <HxForm action="/portal/password" target="#password" csrf={props.csrf}>
        <Input name="currentPassword" label="Current password" kind="password" required autocomplete="current-password" problem={props.problem} />
        <Input
          name="newPassword"
          label="New password"
          kind="password"
          required
          autocomplete="new-password"
          hint="At least 12 characters."
          problem={props.problem}
        />
        <Input name="confirmPassword" label="New password again" kind="password" required autocomplete="new-password" problem={props.problem} />
        <button type="submit">Change password</button>
      </HxForm>
    </section>
  );
}
