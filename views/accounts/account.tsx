import { Done, type FormProblem, HxForm, Input, ProblemSummary } from "../portal/ui";

/** /portal/account: the owner's settings of the account — where the monthly statement is e-mailed. */
export function AccountPage(props: { financeEmail: string | null; value?: string; problem?: FormProblem; done?: string; csrf: string }) {
  return (
    <section id="account">
      <h1>Account settings</h1>
      <Done text={props.done} />
      <div class="card narrow">
        <h2>Finance contact</h2>
        <p class="muted">
          {props.financeEmail
            ? "Each month's statement is e-mailed here once the month is over, with its figures and a link to it in the portal."
            : "No finance contact yet: monthly statements are not e-mailed. Give an address to have each month's statement sent there."}
        </p>
        <ProblemSummary problem={props.problem} inputs={["financeEmail"]} />
        <HxForm action="/portal/account" target="#account" csrf={props.csrf}>
          <Input
            name="financeEmail"
            label="Finance contact's e-mail"
            kind="email"
            value={props.value ?? props.financeEmail ?? ""}
            hint="Leave blank for none."
            problem={props.problem}
            autocomplete="email"
          />
          <button type="submit">Save</button>
        </HxForm>
      </div>
    </section>
  );
}
