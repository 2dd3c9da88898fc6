import { defineModule } from "../manifest";
import { calendarAdmin } from "./admin";
import * as tables from "./schema";

/** Nigeria's public holidays, as data: the claims clock's working days skip them. */
export const calendarModule = defineModule({
  name: "calendar",
  routes: calendarAdmin,
  tables,
  nav: [{ area: "admin", href: "/admin/holidays", label: "Public holidays", key: "holidays", order: 95 }],
});
