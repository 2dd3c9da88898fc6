import { Elysia } from "elysia";
import { Dashboard } from "../../../views/portal/dashboard";
import type { AppDeps } from "../../http/context";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { policyLine } from "../issuance";
import { listPolicies } from "../policies";
import { walletBalance } from "../wallet";
import { dashboardCharts } from "./presenter";
import { expiringSoon, policiesByStatus, premiumsByMonth } from "./statistics";

/** The partner's home: policies by status, premium this month, wallet balance, charts, recent activity. */
export const dashboardPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  return new Elysia({ name: "portal-dashboard" }).use(portalSession(deps)).get(
    "/portal",
    async ({ viewer, csrf, request }) => {
      const now = new Date();
      const scope = { partnerId: viewer.partnerId, mode: viewer.mode };
      // Counts and premiums come from the daily totals (src/modules/dashboard): fast at a million policies.
      const [byStatus, byMonth, expiring, balance, recent, charts] = await Promise.all([
        policiesByStatus(db, scope),
        premiumsByMonth(db, scope, now),
        expiringSoon(db, scope, now),
        walletBalance(db, viewer.partnerId),
        listPolicies(db, { partnerId: viewer.partnerId }, {}, { limit: 8 }),
        dashboardCharts(db, scope, now),
      ]);
      const rows = await Promise.all(recent.items.map(async (p) => ({ ...(await policyLine(db, p)), at: p.statusAt })));
      return page(
        request,
        { title: "Dashboard", active: "dashboard", viewer, csrf },
        <Dashboard
          mode={viewer.mode}
          byStatus={byStatus}
          expiringSoon={expiring}
          premiumThisMonthKobo={byMonth.at(-1)?.premiumKobo ?? 0}
          walletKobo={balance}
          recent={rows}
          charts={charts}
        />,
      );
    },
    { portal: "partner" },
  );
};
