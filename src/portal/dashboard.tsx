import { Elysia } from "elysia";
import { Dashboard } from "../../views/portal/dashboard";
import type { AppDeps } from "../http/context";
import { policyLine } from "../modules/policies/presenter";
import { listPolicies, policySummary } from "../modules/policies/service";
import { walletBalance } from "../modules/wallet/service";
import { page } from "./page";
import { portalSession } from "./session";

/** Midnight WAT on the first of this month. */
const monthStart = (now: Date) => {
  const wat = new Date(now.getTime() + 3_600_000);
  return new Date(Date.UTC(wat.getUTCFullYear(), wat.getUTCMonth(), 1) - 3_600_000);
};

/** The partner's home: policies by status, premium this month, wallet balance, recent activity. */
export const dashboardRoutes = (deps: AppDeps) => {
  const db = deps.database.db;
  return new Elysia({ name: "portal-dashboard" }).use(portalSession(deps)).get(
    "/portal",
    async ({ viewer, csrf, request }) => {
      const now = new Date();
      const [summary, balance, recent] = await Promise.all([
        policySummary(db, viewer.partnerId, viewer.mode, monthStart(now), now),
        walletBalance(db, viewer.partnerId),
        listPolicies(db, { partnerId: viewer.partnerId }, {}, { limit: 8 }),
      ]);
      const rows = await Promise.all(recent.items.map(async (p) => ({ ...(await policyLine(db, p)), at: p.statusAt })));
      return page(
        request,
        { title: "Dashboard", active: "dashboard", viewer, csrf },
        <Dashboard
          mode={viewer.mode}
          byStatus={summary.byStatus}
          expiringSoon={summary.expiringSoon}
          premiumThisMonthKobo={summary.premiumKobo}
          walletKobo={balance}
          recent={rows}
        />,
      );
    },
    { portal: "partner" },
  );
};
