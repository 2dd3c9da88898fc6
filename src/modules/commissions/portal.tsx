import { Elysia } from "elysia";
import { StatementPage } from "../../../views/commissions/commissions";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { page, problemOf } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { currentWatMonth } from "../enrichment";
import { askedMonth, statementDownload, statementPart } from "./pages";
import { partnerStatement } from "./service";

/** The partner's monthly statement: the page, its PDF and its CSV (owner and staff alike). */
export const commissionsPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  return new Elysia({ name: "portal-commissions" })
    .use(portalSession(deps))
    .get(
      "/portal/statements",
      async ({ viewer, csrf, request, query, set }) => {
        const now = new Date();
        const shell = { title: "Statements", active: "statements", viewer, csrf };
        const props = { action: "/portal/statements", currentMonth: currentWatMonth(now) };
        try {
          const month = askedMonth(query.month, now);
          const statement = await partnerStatement(db, viewer.partnerId, month);
          const files = (extension: "pdf" | "csv") => `/portal/statements.${extension}?month=${month}`;
          return page(request, shell, <StatementPage {...props} month={month} statement={statementPart(statement, files, "partner")} />);
        } catch (error) {
          set.status = error instanceof CommandError ? error.status : 400;
          return page(request, shell, <StatementPage {...props} month={query.month ?? ""} problem={problemOf(error)} />);
        }
      },
      { portal: "partner" },
    )
    .get(
      "/portal/statements.pdf",
      ({ viewer, query, set }) => statementDownload(set, "pdf", (now) => partnerStatement(db, viewer.partnerId, askedMonth(query.month, now))),
      { portal: "partner" },
    )
    .get(
      "/portal/statements.csv",
      ({ viewer, query, set }) => statementDownload(set, "csv", (now) => partnerStatement(db, viewer.partnerId, askedMonth(query.month, now))),
      { portal: "partner" },
    );
};
