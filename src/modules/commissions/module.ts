import { defineModule } from "../manifest";
import { commissionsAdmin } from "./admin";
import { commissionCommands } from "./commands";
import { commissionsPortal } from "./portal";
import * as tables from "./schema";
import { statementMailJob } from "./statement-mail";

/** Commissions on live premiums (rates set by the operator) and the partner's monthly statement, e-mailed to its finance contact. */
export const commissionsModule = defineModule({
  name: "commissions",
  commands: commissionCommands,
  routes: (deps) => commissionsPortal(deps).use(commissionsAdmin(deps)),
  tables,
  jobs: ({ db, config }) => [statementMailJob(db, config)],
  nav: [
    { area: "portal", href: "/portal/statements", label: "Statements", key: "statements", order: 65 },
    { area: "admin", href: "/admin/commissions", label: "Commission rates", key: "commissions", order: 52 },
    { area: "admin", href: "/admin/statements", label: "Statements", key: "statements", order: 53 },
  ],
});
