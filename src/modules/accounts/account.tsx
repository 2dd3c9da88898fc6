import { Elysia } from "elysia";
import { AccountPage } from "../../../views/accounts/account";
import type { AppDeps } from "../../http/context";
import { formValues, page, refusedProblem } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { financeContactOf, setFinanceContact } from "./finance-contact";

/** The owner's account settings: the finance contact the monthly statement is e-mailed to. */
export const accountSettings = (deps: AppDeps) => {
  const db = deps.database.db;
  const shell = { title: "Account settings", active: "account" };
  return new Elysia({ name: "portal-account" })
    .use(portalSession(deps))
    .get(
      "/portal/account",
      async ({ viewer, csrf, request }) =>
        page(request, { ...shell, viewer, csrf }, <AccountPage financeEmail={await financeContactOf(db, viewer.partnerId)} csrf={csrf} />),
      { portal: "owner" },
    )
    .post(
      "/portal/account",
      async ({ viewer, csrf, request, body, set }) => {
        const value = formValues(body).financeEmail ?? "";
        try {
          const financeEmail = await setFinanceContact(db, viewer, value, new Date());
          const done = financeEmail ? `Monthly statements will be e-mailed to ${financeEmail}.` : "Monthly statements will not be e-mailed.";
          return page(request, { ...shell, viewer, csrf }, <AccountPage financeEmail={financeEmail} done={done} csrf={csrf} />);
        } catch (error) {
          const problem = refusedProblem(error, set);
          const financeEmail = await financeContactOf(db, viewer.partnerId);
          return page(request, { ...shell, viewer, csrf }, <AccountPage financeEmail={financeEmail} value={value} problem={problem} csrf={csrf} />);
        }
      },
      { portal: "owner" },
    );
};
