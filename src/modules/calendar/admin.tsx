import { Elysia } from "elysia";
import { HolidaysPage } from "../../../views/calendar/holidays";
import type { FormValues } from "../../../views/portal/ui";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { formValues, page, problemOf } from "../../portal/page";
import type { PortalViewer } from "../../portal/session";
import { portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { addHoliday, holidayFrom, listHolidays, removeHoliday } from "./service";

/** The operator's public holidays: the list from today, a form to add one, a button to remove one. */
export const calendarAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const shell = (viewer: PortalViewer, csrf: string) => ({ title: "Public holidays", active: "holidays", viewer, csrf });
  const holidaysPage = async (csrf: string, extra: { values?: FormValues; problem?: ReturnType<typeof problemOf>; done?: string } = {}) => (
    <HolidaysPage rows={await listHolidays(db, watToday(new Date()))} csrf={csrf} {...extra} />
  );
  /** A change, then the page again saying what was done; a refusal beside its field, with what was typed. */
  const change = async (
    ctx: { viewer: PortalViewer; csrf: string; request: Request; set: { status?: number | string } },
    values: FormValues,
    act: () => Promise<string>,
  ) => {
    try {
      const done = await act();
      return page(ctx.request, shell(ctx.viewer, ctx.csrf), await holidaysPage(ctx.csrf, { done }));
    } catch (error) {
      ctx.set.status = error instanceof CommandError ? error.status : 400;
      return page(ctx.request, shell(ctx.viewer, ctx.csrf), await holidaysPage(ctx.csrf, { values, problem: problemOf(error) }));
    }
  };

  return new Elysia({ name: "admin-calendar" })
    .use(portalSession(deps))
    .get("/admin/holidays", async ({ viewer, csrf, request }) => page(request, shell(viewer, csrf), await holidaysPage(csrf)), { portal: "admin" })
    .post(
      "/admin/holidays",
      (ctx) => {
        const values = formValues(ctx.body);
        return change(ctx, values, async () => {
          const holiday = holidayFrom(values);
          await addHoliday(db, ctx.viewer, holiday, new Date());
          return `${holiday.name} is a public holiday.`;
        });
      },
      { portal: "admin" },
    )
    .post(
      "/admin/holidays/:day/remove",
      (ctx) =>
        change(ctx, {}, async () => {
          const removed = await removeHoliday(db, ctx.viewer, ctx.params.day, new Date());
          return `${removed.name} is no longer a public holiday.`;
        }),
      { portal: "admin" },
    );
};
